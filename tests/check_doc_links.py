#!/usr/bin/env python3
"""Every pointer into the documentation still leads somewhere.

Two kinds:
  1. Markdown links in README.md and docs/*.md: [text](path) and
     [text](path#anchor), path relative to the page (web addresses are not
     followed). The file must exist; the anchor must be one of the target
     page's headings, slugged as GitHub does (lower case, punctuation out,
     spaces to hyphens, -1, -2 ... for repeats).
  2. Section citations in the project's files: docs/NAME.md, "Section" (the
     form comments and docs use, with or without the comma). The page must
     exist and have a heading that is the section's text or begins with it
     (case and `code` marks aside).
Prints each one that leads nowhere; exit 1 when there is one.
Usage: check_doc_links.py [ROOT]
"""
import os
import re
import sys

# Where citations are looked for: the project's own files, not build output.
CITING_DIRS = ("include", "src", "tools", "dev", "tests", "web", "python", "blender",
               "mk", "docs", "examples", "fuzz", ".ci")
CITING_FILES = ("Makefile", "README.md")
CITING_ENDINGS = (".c", ".h", ".py", ".sh", ".mjs", ".js", ".mk", ".md", ".html", ".1", ".in")

HEADING = re.compile(r'^(#{1,6})\s+(.*?)\s*#*\s*$')
FENCE = re.compile(r'^\s*(```|~~~)')
# [text](target) and ![alt](target); the target up to a space or ')'.
LINK = re.compile(r'!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)')
CITATION = re.compile(r'(docs/[a-z0-9_-]+\.md),?\s*\(?"([^"\n]+)"')


def headings(path):
    """The page's heading texts, outside code fences."""
    out, fenced = [], False
    with open(path, encoding="utf-8", errors="replace") as fh:
        for line in fh:
            if FENCE.match(line):
                fenced = not fenced
                continue
            m = None if fenced else HEADING.match(line)
            if m:
                out.append(m.group(2))
    return out


def slug(text):
    s = text.strip().lower()
    s = re.sub(r'[^\w\- ]', '', s, flags=re.UNICODE)
    return s.replace(' ', '-')


def anchors(path):
    seen, out = {}, set()
    for h in headings(path):
        base = slug(h)
        n = seen.get(base, 0)
        seen[base] = n + 1
        out.add(base if n == 0 else "%s-%d" % (base, n))
    return out


def plain(text):
    return re.sub(r'[`*_]', '', text).strip().lower()


def markdown_links(root, page, problems):
    fenced = False
    with open(os.path.join(root, page), encoding="utf-8", errors="replace") as fh:
        lines = fh.readlines()
    for no, line in enumerate(lines, 1):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if fenced:
            continue
        for m in LINK.finditer(re.sub(r'`[^`]*`', '', line)):
            target = m.group(1)
            if re.match(r'^[a-z][a-z0-9+.-]*:', target):  # http:, mailto: ...
                continue
            path, _, anchor = target.partition('#')
            full = (os.path.normpath(os.path.join(os.path.dirname(page), path))
                    if path else page)
            if not os.path.exists(os.path.join(root, full)):
                problems.append("%s:%d: link to %s: no such file" % (page, no, target))
            elif anchor and full.endswith(".md") and \
                    anchor.lower() not in anchors(os.path.join(root, full)):
                problems.append("%s:%d: link to %s: %s has no heading #%s"
                                % (page, no, target, full, anchor))


def citing_files(root):
    out = [f for f in CITING_FILES if os.path.isfile(os.path.join(root, f))]
    for d in CITING_DIRS:
        for base, dirs, names in os.walk(os.path.join(root, d)):
            dirs[:] = [x for x in dirs if x not in ("node_modules", "__pycache__")]
            for n in names:
                if n.endswith(CITING_ENDINGS):
                    out.append(os.path.relpath(os.path.join(base, n), root))
    return sorted(set(out))


def citations(root, problems):
    cache = {}
    count = 0
    for f in citing_files(root):
        with open(os.path.join(root, f), encoding="utf-8", errors="replace") as fh:
            text = fh.read()
        # a citation may run over a comment's line break: fold those first
        folded = re.sub(r'\n[ \t]*(?:\*|//|#|;)?[ \t]*', ' ', text)
        for m in CITATION.finditer(folded):
            page, section = m.group(1), m.group(2)
            count += 1
            path = os.path.join(root, page)
            if not os.path.isfile(path):
                problems.append("%s: cites %s, \"%s\": no such page" % (f, page, section))
                continue
            if page not in cache:
                cache[page] = [plain(h) for h in headings(path)]
            want = plain(section)
            if not any(h == want or h.startswith(want) for h in cache[page]):
                problems.append("%s: cites %s, \"%s\": no such section there"
                                % (f, page, section))
    return count


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    problems = []
    pages = ["README.md"] + sorted(os.path.join("docs", n)
                                   for n in os.listdir(os.path.join(root, "docs"))
                                   if n.endswith(".md"))
    for page in pages:
        if os.path.isfile(os.path.join(root, page)):
            markdown_links(root, page, problems)
    cited = citations(root, problems)
    for p in problems:
        print(p)
    if problems:
        print("check_doc_links: %d pointer(s) lead nowhere" % len(problems))
        return 1
    print("check_doc_links: %d pages' links and %d section citations resolve"
          % (len(pages), cited))
    return 0


if __name__ == "__main__":
    sys.exit(main())
