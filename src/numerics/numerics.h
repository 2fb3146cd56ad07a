// Everything numeric in one include.
#pragma once
#include "numerics/attention.h"
#include "numerics/conv.h"
#include "numerics/error_bounds.h"
#include "numerics/fault.h"
#include "numerics/matrix.h"
#include "numerics/permutation.h"
#include "numerics/reduction.h"
#include "numerics/rope.h"
#include "numerics/scalar.h"
#include "core/seeded.h"
#include "numerics/sinusoid.h"
