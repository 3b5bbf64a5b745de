"""XML documents as bytes, for the feeds and the sitemap."""

from __future__ import annotations

from xml.etree import ElementTree as ET

DECLARATION = b"<?xml version='1.0' encoding='utf-8'?>\n"


def xml_document(root: ET.Element) -> bytes:
    """`root` indented by one space, with the declaration, UTF-8, ending in a newline."""
    ET.indent(root, space=" ")
    # why: serialising to text, then encoding once, is 3x faster than ElementTree's encoding
    # writer, which encodes each of a 10,000-paper sitemap's ~100,000 pieces on its own
    return DECLARATION + ET.tostring(root, encoding="unicode").encode("utf-8") + b"\n"
