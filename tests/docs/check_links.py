#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Every relative link in the project's markdown leads somewhere.

    check_links.py REPO_ROOT     check docs/, README.md and bench/results/
    check_links.py --self-test   prove the check finds a missing file and a
                                 missing anchor, and passes good links

A link `[text](target)` outside code whose target is not a URL must name a
file or folder that exists, relative to the page; `#anchor` (alone or after
a markdown file) must be a heading of that page, spelled as GitHub spells
heading anchors. Pages move (the dated run logs went to bench/results/), and
a link left pointing at the old place is a dead end for a reader.
Exit status: 0 when every link resolves, 1 with one line per dead link."""
import bisect
import os
import re
import sys
import tempfile

SCOPE = ("docs", "README.md", os.path.join("bench", "results"))

FENCE = re.compile(r"^\s*(```|~~~)")
CODE_SPAN = re.compile(r"`[^`]*`")
INLINE_LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
# A whole line "[label]: target" with at most a title after the target; a
# sentence that starts with "[14336, 4096]: ..." is prose, not a definition.
REFERENCE_DEF = re.compile(r"^\s*\[[^\]]+\]:\s*(\S+)\s*(?:\"[^\"]*\"|'[^']*'|\([^)]*\))?\s*$")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
EXPLICIT_ANCHOR = re.compile(r"<a\s+(?:name|id)=\"([^\"]+)\"")
URL = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


def prose_lines(path):
    """(line number, line) of the lines outside fenced code blocks."""
    inside = False
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if FENCE.match(line):
                inside = not inside
                continue
            if not inside:
                yield number, line.rstrip("\n")


def slug(heading):
    """The anchor GitHub gives a heading: markup dropped, lower case, only
    word characters, spaces and hyphens kept, spaces turned into hyphens."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    text = text.replace("`", "")
    text = text.strip().lower()
    text = "".join(c for c in text if c.isalnum() or c in " -_")
    return text.replace(" ", "-")


def anchors(path):
    """Every anchor a page offers: its headings' slugs (a repeated slug gets
    -1, -2 ... as GitHub numbers them) and explicit <a name=...> targets."""
    seen = {}
    found = set()
    for _, line in prose_lines(path):
        for name in EXPLICIT_ANCHOR.findall(line):
            found.add(name)
        m = HEADING.match(line)
        if not m:
            continue
        base = slug(m.group(2))
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found


def links(path):
    """(line number, target) of every link outside code; a link's text may
    run over several lines, as a wrapped paragraph does."""
    numbered = list(prose_lines(path))
    text = "\n".join(CODE_SPAN.sub("", line) for _, line in numbered)
    starts = [0]
    for _, line in numbered:
        starts.append(starts[-1] + len(CODE_SPAN.sub("", line)) + 1)
    for m in INLINE_LINK.finditer(text):
        row = bisect.bisect_right(starts, m.start(1)) - 1
        yield numbered[row][0], m.group(1)
    for number, line in numbered:
        m = REFERENCE_DEF.match(CODE_SPAN.sub("", line))
        if m:
            yield number, m.group(1)


def dead_links(path, anchor_cache):
    """Messages for the links of `path` that lead nowhere."""
    problems = []
    for number, target in links(path):
        if URL.match(target) or target.startswith("//"):
            continue
        file_part, _, anchor = target.partition("#")
        if file_part.startswith("/"):
            problems.append(f"{path}:{number}: '{target}' is an absolute path; link relative to the page")
            continue
        dest = os.path.normpath(os.path.join(os.path.dirname(path), file_part)) if file_part else path
        if not os.path.exists(dest):
            problems.append(f"{path}:{number}: '{target}' names {dest}, which does not exist")
            continue
        if not anchor:
            continue
        if os.path.isdir(dest) or not dest.endswith(".md"):
            problems.append(f"{path}:{number}: '{target}' has an anchor, but {dest} is not a markdown page")
            continue
        if dest not in anchor_cache:
            anchor_cache[dest] = anchors(dest)
        if anchor not in anchor_cache[dest]:
            problems.append(f"{path}:{number}: '{target}': {dest} has no heading with the anchor '#{anchor}'")
    return problems


def pages(root):
    """The markdown pages in scope, below `root`."""
    found = []
    for entry in SCOPE:
        where = os.path.join(root, entry)
        if os.path.isfile(where):
            found.append(where)
            continue
        for folder, _, files in os.walk(where):
            found += [os.path.join(folder, f) for f in files if f.endswith(".md")]
    return sorted(found)


def check(root):
    anchor_cache = {}
    problems = []
    checked = pages(root)
    for page in checked:
        problems += dead_links(page, anchor_cache)
    return checked, problems


def self_test():
    """The check must flag a missing file and a missing anchor, and must not
    flag good links, links in code, URLs or GitHub's numbered repeats."""
    with tempfile.TemporaryDirectory() as root:
        os.makedirs(os.path.join(root, "docs", "sub"))
        os.makedirs(os.path.join(root, "bench", "results"))
        with open(os.path.join(root, "README.md"), "w", encoding="utf-8") as f:
            f.write("# Top\n\n[ok](docs/a.md#the-c-wrapper-sknhpp) [dir](bench/results/)\n"
                    "[url](https://example.org/x.md) `[code](missing.md)`\n\n```\n[fenced](gone.md)\n```\n")
        with open(os.path.join(root, "docs", "a.md"), "w", encoding="utf-8") as f:
            f.write("# A\n\n## The C++ wrapper (`skn.hpp`)\n\n## Notes\n\n## Notes\n\n"
                    "[self](#notes-1) [up](../README.md#top) [a link whose text\nwraps](sub/nothere.md)\n")
        with open(os.path.join(root, "bench", "results", "r.md"), "w", encoding="utf-8") as f:
            f.write("# R\n\n[page](../../docs/a.md#no-such-heading)\n[14336, 4096]: prose, not a link\n\n"
                    "[label]: ../../docs/a.md#notes\n")
        _, problems = check(root)
    expected = ["sub/nothere.md", "#no-such-heading"]
    ok = len(problems) == len(expected) and all(any(e in p for p in problems) for e in expected)
    if not ok:
        print("self-test failed: expected one problem each for", expected, "but got:")
        for p in problems:
            print("  " + p)
        return 1
    print("self-test passed: a missing file and a missing anchor were found, nothing else")
    return 0


def main(argv):
    if len(argv) == 2 and argv[1] == "--self-test":
        return self_test()
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    checked, problems = check(argv[1])
    if not checked:
        print(f"no markdown pages found under {argv[1]}: give the repository's root")
        return 1
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} dead link(s) in {len(checked)} pages: fix the target or the heading it names")
        return 1
    print(f"every relative link in {len(checked)} pages resolves")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
