# Forecaster references (owner: forecast): Holt-Winters against statsmodels'
# ExponentialSmoothing, SNARIMAX against a NumPy recurrence (1e-9), and the
# one-step RMSE of both against statsmodels' fitted models. The script runs
# the gtest dump job of irithyll_test_timeseries; it exits 77 (skipped, with
# a message naming the Debian package) when numpy or statsmodels is missing.
if(TARGET irithyll_test_timeseries)
  add_test(NAME timeseries_statsmodels_reference
           COMMAND /usr/bin/python3 ${PROJECT_SOURCE_DIR}/tests/reference/timeseries_ref.py
                   $<TARGET_FILE:irithyll_test_timeseries>)
  set_tests_properties(timeseries_statsmodels_reference PROPERTIES SKIP_RETURN_CODE 77)
endif()
