# Proofs and certificates (issue 4): certified enclosures, exhaustive checks on
# small domains, exact algebra, the bitwise study and the error budgets. They
# attach to the claims by id (PV_CLAIM_PROOF), so they live in the claims
# object library that the CLI and the unit tests link; their tests are
# tests/proofs/*_test.cpp, globbed into posverify_unit_test.
file(GLOB POSVERIFY_PROOF_SOURCES CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/src/proofs/*.cpp)
target_sources(posverify_claims PRIVATE ${POSVERIFY_PROOF_SOURCES})
