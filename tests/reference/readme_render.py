"""The README renders as its author meant: rendered by a CommonMark parser
(markdown-it-py, Debian python3-markdown-it), every command line sits in a
code block, the only top-level heading is the title, and every '## ' line
written outside a fence is a section heading. A stray fence fails all three.

Usage: readme_render.py README.md
"""
import re
import sys

sys.path.insert(0, __import__("os").path.dirname(__file__))
from missing_tool import missing_tool

try:
    from markdown_it import MarkdownIt
except ImportError:
    missing_tool("markdown-it-py", "python3-markdown-it")

text = open(sys.argv[1], encoding="utf-8").read()
tokens = MarkdownIt("commonmark").parse(text)

# Lines inside fenced code blocks, as the renderer sees them.
fenced = set()
headings = []
for i, tok in enumerate(tokens):
    if tok.type in ("fence", "code_block") and tok.map:
        fenced.update(range(tok.map[0], tok.map[1]))
    if tok.type == "heading_open":
        headings.append((tok.tag, tokens[i + 1].content))

problems = []
h1 = [h for tag, h in headings if tag == "h1"]
if len(h1) != 1:
    problems.append(f"{len(h1)} top-level headings (a '# comment' outside a fence renders as one): {h1}")
lines = text.split("\n")
for n, line in enumerate(lines):
    if re.match(r"^(\./build/irithyll|cmake |bash scripts/|pip install)", line) and n not in fenced:
        problems.append(f"line {n + 1}: a command outside any code block: {line[:60]}")
written = [l[3:].strip() for n, l in enumerate(lines) if l.startswith("## ") and n not in fenced]
rendered = [h for tag, h in headings if tag == "h2"]
if written != rendered:
    problems.append(f"sections written {written} but rendered {rendered}")
if problems:
    print("README does not render as written:\n  " + "\n  ".join(problems))
    sys.exit(1)
print(f"README renders: {len(rendered)} sections, {len(fenced)} lines in code blocks")
