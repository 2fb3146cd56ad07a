// posverify's plain attention computed as a declared accuracy class computes
// (the "plain" of attention.reference's rule, laws/attention/reference.h): q,
// k and v rounded to the class's format (storage, emulated exactly), every
// operation rounded to float32, or to the format itself for
// float16-accumulation, and the sum of p v to the format for
// float16-pv-accumulation. The diagnoses compare a kernel's error with its
// error (attention.reference, attention.shapes).
#pragma once

#include "blackbox/accuracy.h"
#include "laws/attention/reference.h"
#include "numerics/matrix.h"

namespace pv::blackbox {

template <class T>
matrix<T> plain_in_class(const accuracy_class& a, const matrix<T>& q, const matrix<T>& k, const matrix<T>& v) {
  const auto to_format = [&](double x) { return round_to_format(x, a); };
  const auto to_float = [](double x) { return double(float(x)); };
  const auto op = [&](double x) { return a.accumulate ? to_format(x) : to_float(x); };
  const auto pv = [&](double x) { return a.accumulate || a.accumulate_pv ? to_format(x) : to_float(x); };
  return laws::attention_reference::plain_rounded(q, k, v, to_format, op, pv);
}

}  // namespace pv::blackbox
