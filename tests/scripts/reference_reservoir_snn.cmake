# Independent references for the reservoir and spiking areas (owner: reservoir).
# Small dump programs print the C++ model's weights and trajectories; Python
# scripts recompute them (NumPy for the f64 reservoirs, plain integers for the
# Q1.14 spiking network) and compare. Exit 77 = skipped (no NumPy).
add_executable(reference_snn_dump ${PROJECT_SOURCE_DIR}/tests/reference/snn_dump.cpp)
target_link_libraries(reference_snn_dump PRIVATE irithyll_nn_snn irithyll_warnings)
target_include_directories(reference_snn_dump PRIVATE ${PROJECT_SOURCE_DIR}/src)  # internal headers too
add_test(NAME reference.snn_bit_exact
         COMMAND /usr/bin/python3 ${PROJECT_SOURCE_DIR}/tests/reference/snn_reference.py $<TARGET_FILE:reference_snn_dump>)
set_tests_properties(reference.snn_bit_exact PROPERTIES SKIP_RETURN_CODE 77)

add_executable(reference_reservoir_dump ${PROJECT_SOURCE_DIR}/tests/reference/reservoir_dump.cpp)
target_link_libraries(reference_reservoir_dump PRIVATE irithyll_nn_reservoir irithyll_warnings)
target_include_directories(reference_reservoir_dump PRIVATE ${PROJECT_SOURCE_DIR}/src)
add_test(NAME reference.reservoir_numpy
         COMMAND /usr/bin/python3 ${PROJECT_SOURCE_DIR}/tests/reference/reservoir_reference.py $<TARGET_FILE:reference_reservoir_dump>)
set_tests_properties(reference.reservoir_numpy PROPERTIES SKIP_RETURN_CODE 77)

