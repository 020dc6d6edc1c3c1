# The README renders as written (tests/reference/readme_render.py, a
# CommonMark parser): no stray fence turns a comment into a heading or
# swallows a section. Exit 77 (skip) without python3-markdown-it.
if(EXISTS /usr/bin/python3)
  add_test(NAME readme_renders
           COMMAND /usr/bin/python3 ${PROJECT_SOURCE_DIR}/tests/reference/readme_render.py ${PROJECT_SOURCE_DIR}/README.md)
  set_tests_properties(readme_renders PROPERTIES SKIP_RETURN_CODE 77)
endif()
