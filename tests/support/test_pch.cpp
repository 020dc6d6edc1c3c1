// Owner of the tests' precompiled header (tests/support/test_pch.hpp): every
// test binary reuses the one this program builds. It holds no tests.
