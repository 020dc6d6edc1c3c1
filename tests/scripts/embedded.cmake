# Cortex-M0+ cross-build of the freestanding packed reader and a QEMU Cortex-M3
# run that must reproduce the host's predictions (scripts/embedded-check).
# Skipped (exit 77) when the Arm toolchain, QEMU or ../shared is missing.
add_test(NAME packed_embedded_check
  COMMAND ${PROJECT_SOURCE_DIR}/scripts/embedded-check --ctest
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(packed_embedded_check PROPERTIES
  SKIP_RETURN_CODE 77
  TIMEOUT 300
  ENVIRONMENT "IRITHYLL_SHARED_DIR=${PROJECT_SOURCE_DIR}/../shared;IRITHYLL_EMBEDDED_DIR=${CMAKE_BINARY_DIR}/embedded")
