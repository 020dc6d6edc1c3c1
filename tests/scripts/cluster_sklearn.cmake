# Streaming k-means against scikit-learn's KMeans (owner: cluster): the
# script runs build/irithyll cluster over seeded mixtures and checks the
# inertia is within 5%; it exits 77 (skipped) without NumPy or scikit-learn.
add_test(NAME cluster_kmeans_sklearn
         COMMAND /usr/bin/python3 ${PROJECT_SOURCE_DIR}/tests/reference/kmeans_sklearn.py $<TARGET_FILE:irithyll_cli>)
set_tests_properties(cluster_kmeans_sklearn PROPERTIES SKIP_RETURN_CODE 77)
