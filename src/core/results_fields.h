// The fields of the records of core/results.h as claims.json writes them,
// one table per record (core/record_fields.h): claim_fields(),
// property_fields() and report_fields() drive the writer
// (reports/claims_report.cpp), the reader of posverify merge and the keys it
// knows (the others go to the record's extra). A field of a record is its
// member in results.h and its row here.
#pragma once

#include "core/json.h"
#include "core/record_fields.h"
#include "core/results.h"

namespace pv {

/// A claim's record in claims.json ("claims"), field by field in the order
/// written; its `extra` follows.
inline const fields::table<claim_result>& claim_fields() {
  using R = claim_result;
  static const fields::table<R> t(
      {
          fields::text("id", &R::id),
          fields::text("section", &R::section),
          fields::text("checked", &R::checked),
          fields::verdict_field("verdict", &R::result),
          fields::value("values", &R::values, json::kind::object),
          fields::value("printed", &R::printed, json::kind::object),
          fields::optional_text("qualification", &R::qualification),
          fields::optional_text("summary", &R::summary, /*omit_unset=*/true),
      },
      &R::extra);
  return t;
}

/// A property's record in claims.json ("properties"); its `extra` follows.
inline const fields::table<property_result>& property_fields() {
  using R = property_result;
  static const fields::table<R> t(
      {
          fields::text("id", &R::id),
          fields::text("law", &R::law),
          fields::text("tolerance", &R::tolerance),
          fields::verdict_field("verdict", &R::verdict),
          fields::whole("cases", &R::cases),
          fields::text("seed", &R::seed),
          fields::optional_text("counterexample", &R::counterexample),
          fields::optional_text("replay", &R::replay),
      },
      &R::extra);
  return t;
}

/// claims.json: the run and its records.
inline const fields::table<report>& report_fields() {
  using R = report;
  static const fields::table<R> t({
      fields::text("tool", &R::tool),
      fields::text("version", &R::version),
      fields::optional_text("build", &R::build, /*omit_unset=*/true),
      fields::whole("precision_bits", &R::precision_bits),
      fields::text("seed", &R::seed),
      fields::records("claims", &R::claims, &claim_fields),
      fields::records("properties", &R::properties, &property_fields),
  });
  return t;
}

}  // namespace pv
