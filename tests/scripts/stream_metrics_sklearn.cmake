# The whole-stream metrics of `irithyll eval --json` (balanced accuracy, ROC
# AUC, kappa_t/kappa_m and their baselines, MAPE, SMAPE) against scikit-learn
# and NumPy on the run's own predictions (tests/reference/stream_metrics_sklearn_ref.py).
# Exit 77 (skip) without python3-numpy or python3-sklearn.
if(TARGET irithyll_cli AND EXISTS /usr/bin/python3)
  add_test(NAME stream_metrics_sklearn_reference
           COMMAND /usr/bin/python3 ${PROJECT_SOURCE_DIR}/tests/reference/stream_metrics_sklearn_ref.py
                   $<TARGET_FILE:irithyll_cli> ${CMAKE_BINARY_DIR}/tests/stream_metrics_sklearn)
  set_tests_properties(stream_metrics_sklearn_reference PROPERTIES SKIP_RETURN_CODE 77 LABELS sklearn)
endif()
