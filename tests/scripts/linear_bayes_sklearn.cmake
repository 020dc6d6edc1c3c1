# scikit-learn / NumPy references for naive Bayes, passive-aggressive and
# logistic regression (owner: linear), run through `irithyll eval
# --predictions`; exits 77 (skipped) when python3-numpy or python3-sklearn is
# missing.
if(TARGET irithyll_cli)
  add_test(NAME linear_bayes_sklearn_reference
           COMMAND /usr/bin/python3 ${PROJECT_SOURCE_DIR}/tests/reference/linear_bayes_sklearn_ref.py
                   $<TARGET_FILE:irithyll_cli>)
  set_tests_properties(linear_bayes_sklearn_reference PROPERTIES SKIP_RETURN_CODE 77)
endif()
