#!/usr/bin/env python3
"""Checks the links of the generated docs of our crates: every relative link must
reach a file, and every `#anchor` an element with that id. rustdoc renames a heading
whose id is taken (`#layout` became `#layout-1`), and then a link silently lands at
the top of the page; this catches it.

Usage: python3 .ci/check-doc-links.py target/doc
"""
import html.parser
import os
import sys
import urllib.parse

CRATES = ("snowflake_kit", "snowflake_runtime", "snowflake_cli", "snowflake_lease", "snowflake_server")


class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids, self.links, self.redirect = set(), [], None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        # rustdoc's stub for an item's private path: `<meta http-equiv="refresh" content="0;URL=...">`.
        if tag == "meta" and attrs.get("http-equiv") == "refresh":
            content = attrs.get("content", "")
            if "URL=" in content:
                self.redirect = content.split("URL=", 1)[1]
        if attrs.get("id"):
            self.ids.add(attrs["id"])
        if attrs.get("name"):
            self.ids.add(attrs["name"])
        if tag == "a" and attrs.get("href"):
            self.links.append(attrs["href"])


def parse(path, cache={}):
    if path not in cache:
        page = Page()
        with open(path, encoding="utf-8") as f:
            page.feed(f.read())
        cache[path] = page
    return cache[path]


def main(root):
    broken, checked = [], 0
    for crate in CRATES:
        base = os.path.join(root, crate)
        for folder, _, files in os.walk(base):
            for name in files:
                if not name.endswith(".html"):
                    continue
                path = os.path.join(folder, name)
                for href in parse(path).links:
                    url = urllib.parse.urlparse(href)
                    if url.scheme or url.netloc or href.startswith("javascript:"):
                        continue
                    target = os.path.normpath(os.path.join(folder, urllib.parse.unquote(url.path))) if url.path else path
                    # Rustdoc's own pages (settings, help, search) are not ours to check.
                    if not target.startswith(os.path.abspath(root)) and not target.startswith(root):
                        continue
                    if "/src/" in target or not target.endswith(".html"):
                        continue
                    checked += 1
                    if not os.path.exists(target):
                        broken.append(f"{path}: {href} -> no such file")
                    elif url.fragment and not url.fragment.startswith("L"):
                        page = parse(target)
                        if page.redirect:
                            target = os.path.normpath(os.path.join(os.path.dirname(target), page.redirect))
                            page = parse(target) if os.path.exists(target) else Page()
                        if url.fragment not in page.ids:
                            broken.append(f"{path}: {href} -> no element with id {url.fragment!r}")
    for line in broken:
        print(line)
    print(f"doc links: {checked} checked, {len(broken)} broken")
    return 1 if broken or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "target/doc"))
