#!/usr/bin/env python3
"""Fails when a page of the built book shows a Markdown table as raw text.

A table that does not render (a blank line inside it, a row without its header) reaches the
HTML as a paragraph of `| a | b |` lines. This reads every .html file under the book's output
directory (default docs/book), outside <pre>, <code>, <script> and <style>, and reports each line
of text that starts and ends with `|`.

Usage: python3 scripts/book-tables.py [docs/book]
"""

import html.parser
import pathlib
import sys

SKIPPED = {"pre", "code", "script", "style"}


class Text(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.depth = 0
        self.chunks = []

    def handle_starttag(self, tag, attrs):
        if tag in SKIPPED:
            self.depth += 1
        elif tag in {"p", "li", "td", "th", "div", "br", "h1", "h2", "h3", "h4", "tr"}:
            self.chunks.append("\n")

    def handle_endtag(self, tag):
        if tag in SKIPPED and self.depth > 0:
            self.depth -= 1
        elif tag in {"p", "li", "td", "th", "div", "tr"}:
            self.chunks.append("\n")

    def handle_data(self, data):
        if self.depth == 0:
            self.chunks.append(data)


def raw_rows(page):
    parser = Text()
    parser.feed(page.read_text(encoding="utf-8"))
    for line in "".join(parser.chunks).splitlines():
        line = line.strip()
        if len(line) > 1 and line.startswith("|") and line.endswith("|"):
            yield line


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "docs/book")
    pages = sorted(p for p in root.rglob("*.html") if p.name != "print.html")
    if not pages:
        print(f"no HTML page under {root}: build the book first (mdbook build docs)")
        return 2
    bad = 0
    for page in pages:
        for row in raw_rows(page):
            bad += 1
            print(f"{page}: a table shown as text: {row[:120]}")
    print(f"{len(pages)} pages read, {bad} raw table rows")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
