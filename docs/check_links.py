#!/usr/bin/env python3
# Checks that every relative link and image in README.md and docs/**/*.md resolves: the file exists and,
# for a link with #anchor into a Markdown file, a heading there has that anchor (GitHub's slugs).
# Links to http(s) and mailto are not checked. Exits 1 and lists the broken ones.
#   python3 docs/check_links.py
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
LINK = re.compile(r'!?\[(?:[^\]\\]|\\.)*\]\(([^)\s]+)\)')
FENCE = re.compile(r'^(```|~~~)')


def slug(heading):
    # GitHub: lower case, drop everything but letters, digits, spaces, hyphens and underscores, spaces to hyphens.
    text = re.sub(r'`|\*|_(?=\w)|(?<=\w)_', lambda m: '' if m.group(0) in '`*' else m.group(0), heading)
    text = text.strip().lower()
    text = re.sub(r'[^\w\- ]', '', text)
    return text.replace(' ', '-')


def text_outside_fences(path):
    lines, fenced = [], False
    for line in path.read_text(encoding='utf-8').splitlines():
        if FENCE.match(line.strip()):
            fenced = not fenced
            continue
        lines.append('' if fenced else line)
    return lines


def anchors(path):
    seen, result = {}, set()
    for line in text_outside_fences(path):
        m = re.match(r'^#{1,6}\s+(.*?)\s*#*\s*$', line)
        if not m:
            continue
        s = slug(m.group(1))
        n = seen.get(s, 0)
        seen[s] = n + 1
        result.add(s if n == 0 else f'{s}-{n}')
    return result


def main():
    files = [ROOT / 'README.md'] + sorted((ROOT / 'docs').rglob('*.md'))
    broken, count = [], 0
    for md in files:
        for number, line in enumerate(text_outside_fences(md), 1):
            for target in LINK.findall(line):
                if re.match(r'^[a-z]+:', target):
                    continue
                count += 1
                file_part, _, anchor = target.partition('#')
                dest = md if not file_part else (md.parent / file_part).resolve()
                where = f'{md.relative_to(ROOT)}:{number}: {target}'
                if not dest.exists():
                    broken.append(f'{where}: no such file')
                elif anchor and dest.suffix == '.md' and anchor not in anchors(dest):
                    broken.append(f'{where}: no heading #{anchor} in {dest.relative_to(ROOT)}')
    for b in broken:
        print(b)
    print(f'{count} relative links in {len(files)} files, {len(broken)} broken')
    return 1 if broken else 0


if __name__ == '__main__':
    sys.exit(main())
