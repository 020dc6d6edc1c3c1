# Every attention mode's recurrence against the independent NumPy reference
# (tests/reference/attention_ref.py), on random weights and 64 steps, to 1e-10.
# Debian's /usr/bin/python3 carries python3-numpy; exit 77 (skip) without it.
if(TARGET irithyll_test_nn_attention AND EXISTS /usr/bin/python3)
  add_test(NAME attention_numpy_reference
           COMMAND /usr/bin/python3 ${PROJECT_SOURCE_DIR}/tests/reference/attention_ref.py
                   $<TARGET_FILE:irithyll_test_nn_attention> ${CMAKE_BINARY_DIR}/tests/attention_ref)
  set_tests_properties(attention_numpy_reference PROPERTIES SKIP_RETURN_CODE 77 LABELS numpy)
endif()
# The paper's log-linear variants against their materialised O(T^2) masked
# form (tests/reference/loglinear_paper_ref.py), T up to 256, L in 1..9, to 1e-10.
if(TARGET irithyll_test_nn_attention AND EXISTS /usr/bin/python3)
  add_test(NAME loglinear_paper_numpy_reference
           COMMAND /usr/bin/python3 ${PROJECT_SOURCE_DIR}/tests/reference/loglinear_paper_ref.py
                   $<TARGET_FILE:irithyll_test_nn_attention> ${CMAKE_BINARY_DIR}/tests/loglinear_paper_ref)
  set_tests_properties(loglinear_paper_numpy_reference PROPERTIES SKIP_RETURN_CODE 77 LABELS numpy)
endif()
