# kNN against scikit-learn's KNeighbors* refitted on the same window, row by
# row through `irithyll eval --predictions` (tests/reference/knn_sklearn_ref.py).
# Exit 77 (skip) without python3-numpy or python3-sklearn.
if(TARGET irithyll_cli AND EXISTS /usr/bin/python3)
  add_test(NAME knn_sklearn_reference
           COMMAND /usr/bin/python3 ${PROJECT_SOURCE_DIR}/tests/reference/knn_sklearn_ref.py
                   $<TARGET_FILE:irithyll_cli> ${CMAKE_BINARY_DIR}/tests/knn_sklearn)
  set_tests_properties(knn_sklearn_reference PROPERTIES SKIP_RETURN_CODE 77 LABELS sklearn)
endif()
