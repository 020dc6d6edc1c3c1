# NumPy references for the SSM and recurrent cells (owner: ssm). Each script
# runs the gtest dump of its area and recomputes every output to 1e-10; it
# exits 77 (skipped) when Debian's python3-numpy is missing.
if(TARGET irithyll_test_nn_ssm)
  add_test(NAME nn_ssm_numpy_reference
           COMMAND /usr/bin/python3 ${PROJECT_SOURCE_DIR}/tests/reference/ssm_ref.py $<TARGET_FILE:irithyll_test_nn_ssm>)
  set_tests_properties(nn_ssm_numpy_reference PROPERTIES SKIP_RETURN_CODE 77)
endif()
if(TARGET irithyll_test_nn_rnn)
  add_test(NAME nn_rnn_numpy_reference
           COMMAND /usr/bin/python3 ${PROJECT_SOURCE_DIR}/tests/reference/rnn_ref.py $<TARGET_FILE:irithyll_test_nn_rnn>)
  set_tests_properties(nn_rnn_numpy_reference PROPERTIES SKIP_RETURN_CODE 77)
endif()
