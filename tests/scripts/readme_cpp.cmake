# The README's C++ examples compile against the public headers
# (tests/reference/readme_cpp.py: each ```cpp block, -fsyntax-only).
if(EXISTS /usr/bin/python3)
  add_test(NAME readme_cpp_compiles
           COMMAND /usr/bin/python3 ${PROJECT_SOURCE_DIR}/tests/reference/readme_cpp.py ${PROJECT_SOURCE_DIR}/README.md
                   ${CMAKE_CXX_COMPILER} ${PROJECT_SOURCE_DIR}/include)
endif()
