# Read by ctest after the GoogleTest discovery files (CMakeLists.txt appends
# it to TEST_INCLUDE_FILES last). A fresh build has no timing history, so ctest
# would start tests in the order listed and could leave a few-minute test for
# the end of a -j run, alone on one core. COST makes the long ones start first;
# the figures are seconds measured on a 2-core machine (a larger cost starts
# earlier; only the order matters). (ctest ignores a name that a build lacks.)
set(_posverify_costs
  "CheckMutation.EveryMutantIsCaught" 160
  "FaultMatrix.EveryVerdictIsFlippedByAPlantedFaultAndTheReportSaysSo" 65
  "VerifyShards.MergedShardsEqualTheSingleRun" 55
  "PlantedFaults.BitwiseStudyConclusionFollowsTheBoundCheck" 45
  "CheckPanel.EveryMemberPassesEveryLaw" 30
  "CheckJobsLibraries.MutationAndPanelRecordsAsOneProcessWritesThem" 12
  "ProofAttachments.AttachToCataloguedClaimsWithoutTouchingValues" 25)
list(LENGTH _posverify_costs _n)
math(EXPR _last "${_n} - 1")
foreach(_i RANGE 0 ${_last} 2)
  math(EXPR _j "${_i} + 1")
  list(GET _posverify_costs ${_i} _name)
  list(GET _posverify_costs ${_j} _cost)
  set_tests_properties("${_name}" PROPERTIES COST ${_cost})
endforeach()
