"""Imported by the bench scripts' inline Python (run from the repository root): writes a section
of BENCHMARKS.md."""

HEADER = (
    "# hotrank benchmarks\n\nEvery figure is a ratio against a named peer measured in the same run,"
    " with the command that reproduces it.\n\n"
)


def write_section(report, lines):
    """Replaces the section headed by lines[0] (up to the next "## " heading) with the lines, or
    appends it when the report has no such section; creates the report when missing. Prints the
    section."""
    section = "\n".join(lines)
    try:
        text = open(report).read()
    except FileNotFoundError:
        text = HEADER
    start = text.find(lines[0])
    if start >= 0:
        end = text.find("\n## ", start + 1)
        text = text[:start] + section + ("" if end < 0 else "\n" + text[end + 1:])
    else:
        text = text.rstrip("\n") + "\n\n" + section
    open(report, "w").write(text)
    print(section)
