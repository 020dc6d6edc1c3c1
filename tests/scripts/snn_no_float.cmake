# (owner: reservoir) The spiking step must contain no floating-point instructions.
add_test(NAME reference.snn_no_float
         COMMAND /usr/bin/python3 ${PROJECT_SOURCE_DIR}/tests/reference/snn_no_float.py $<TARGET_FILE:reference_snn_dump> $<TARGET_FILE:irithyll_nn_snn>)
set_tests_properties(reference.snn_no_float PROPERTIES SKIP_RETURN_CODE 77)
