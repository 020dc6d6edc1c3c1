"""The README's C++ blocks compile against the public headers: each ```cpp
block is written to a file and checked with the compiler given
(-fsyntax-only), so an example cannot fall behind the API it shows.

    python3 tests/reference/readme_cpp.py README.md CXX INCLUDE_DIR
"""
import os
import subprocess
import sys
import tempfile


def blocks(text):
    out, cur = [], None
    for line in text.splitlines():
        if cur is None and line.strip() == "```cpp":
            cur = []
        elif cur is not None and line.strip() == "```":
            out.append("\n".join(cur) + "\n")
            cur = None
        elif cur is not None:
            cur.append(line)
    return out


def main(argv):
    readme, cxx, include = argv[1], argv[2], argv[3]
    found = blocks(open(readme, encoding="utf-8").read())
    if not found:
        print(f"{readme}: no ```cpp block")
        return 1
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for i, code in enumerate(found):
            path = os.path.join(tmp, f"readme_block_{i}.cpp")
            with open(path, "w") as f:
                f.write(code)
            r = subprocess.run([cxx, "-std=c++20", "-fsyntax-only", "-I", include, path], capture_output=True, text=True)
            if r.returncode != 0:
                failed += 1
                print(f"README ```cpp block {i} does not compile:\n{r.stderr}")
    print(f"{len(found)} block(s), {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
