// What every claim file includes: the registry, the numerics, and the
// helpers for values, printed digits, fixed inputs and comparisons.
#pragma once

#include "claims/comparisons.h"
#include "claims/inputs.h"
#include "claims/printed.h"
#include "claims/registry.h"
#include "claims/tolerance.h"
#include "claims/values.h"
#include "numerics/error_bounds.h"
#include "numerics/numerics.h"
