// Everything numeric in one include.
#pragma once
#include "attention.h"
#include "conv.h"
#include "error_bounds.h"
#include "fault.h"
#include "matrix.h"
#include "permutation.h"
#include "reduction.h"
#include "rope.h"
#include "scalar.h"
#include "seeded.h"
#include "sinusoid.h"
