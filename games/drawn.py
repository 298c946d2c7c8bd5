"""A page drawn once per match version and compressed once, for every phone that asks for it:
only the slots that differ per phone (its CSRF token, its form's entry key) are filled in per
request, between pieces compressed when the page was drawn."""

import functools
import gzip
import re
import secrets
import struct
import sys
import zlib

from django.http import HttpResponse
from django.utils.cache import patch_vary_headers

ACCEPTS_GZIP = re.compile(r"\bgzip\b")
GZIP_HEADER = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\xff"  # no name or time; best compression
# What differs per phone in a page drawn once: its CSRF token and its forms' entry key.
CSRF_SLOT, KEY_SLOT = "csrf-slot-7Yq2", "entry-key-slot-7Yq2"


def new_entry_key():
    """The random key of a drawn entry form: a save from it is stored once (16 characters)."""
    return secrets.token_urlsafe(12)


class DrawnPage:
    """A page drawn once with slots for what differs per phone (its CSRF token, its entry key),
    kept as UTF-8 pieces between the slots, and compressed once.

    slots maps each slot's placeholder to the length of what fills it. response() fills them
    in. A phone that accepts gzip gets the stored compressed pieces with its own values between
    them as stored (uncompressed) deflate blocks: nothing is compressed per request. Each piece
    is compressed knowing the pieces before it (a preset dictionary), with 0xFF bytes, which
    UTF-8 text never holds, standing where the values will be: it may refer back to the page
    before it, never to a value. So no secret is compressed with the page, and the compressed
    size tells nothing about it (BREACH).
    """

    def __init__(self, html, slots=None):
        self.text = html  # as drawn, with the slots' placeholders
        slots = slots or {}
        parts = re.split("(" + "|".join(map(re.escape, slots)) + ")", html) if slots else [html]
        self.slots = parts[1::2]
        self.lengths = [slots[slot] for slot in self.slots]
        self.pieces = [part.encode() for part in parts[0::2]]

    @functools.cached_property
    def deflated(self):
        """The pieces compressed, made for the first phone that accepts gzip: a save draws the
        live update of its version for its own answer, and the other phones' checks want it
        compressed."""
        deflated, before = [], b""
        for k, piece in enumerate(self.pieces):
            deflate = zlib.compressobj(
                9, zlib.DEFLATED, -zlib.MAX_WBITS, **({"zdict": before[-32768:]} if before else {})
            )
            last = k == len(self.pieces) - 1
            # A piece ends on a byte boundary, where a stored block can follow it.
            deflated.append(
                deflate.compress(piece)
                + deflate.flush(zlib.Z_FINISH if last else zlib.Z_SYNC_FLUSH)
            )
            before += piece + (b"" if last else b"\xff" * self.lengths[k])
        return deflated

    def size(self):
        """The bytes it keeps, at most (its text as Python holds it: 2 or 4 bytes a character
        once it has a ♥ or an emoji; the compressed pieces as large as the pieces)."""
        return sys.getsizeof(self.text) + 2 * sum(map(len, self.pieces))

    def response(self, request, values):
        """The page with values[slot] in each slot: gzip-compressed when the phone accepts it."""
        filled = [values[slot].encode() for slot in self.slots]
        if (
            ACCEPTS_GZIP.search(request.META.get("HTTP_ACCEPT_ENCODING", ""))
            and list(map(len, filled)) == self.lengths
        ):
            out, crc, size = [GZIP_HEADER, self.deflated[0]], zlib.crc32(self.pieces[0]), 0
            for value, deflated, piece in zip(filled, self.deflated[1:], self.pieces[1:]):
                # A stored block: its header byte, its length and the length's complement.
                out += [struct.pack("<BHH", 0, len(value), len(value) ^ 0xFFFF), value, deflated]
                crc = zlib.crc32(piece, zlib.crc32(value, crc))
                size += len(value)
            size += sum(map(len, self.pieces))
            out.append(struct.pack("<II", crc, size & 0xFFFFFFFF))
            response = HttpResponse(b"".join(out))
            response["Content-Encoding"] = "gzip"
        else:  # GZipMiddleware compresses it if the phone accepts gzip (a value of a new length)
            body = [self.pieces[0]]
            for value, piece in zip(filled, self.pieces[1:]):
                body += [value, piece]
            response = HttpResponse(b"".join(body))
        patch_vary_headers(response, ("Accept-Encoding",))
        return response


class Download:
    """A file drawn once (a table's export) and kept compressed only: sent as gzip to a phone
    that accepts it (a browser saves what it decodes), decompressed for one that does not."""

    def __init__(self, text, filename, content_type):
        self.body = gzip.compress(text.encode(), compresslevel=3, mtime=0)  # 7 ms a MB
        self.filename, self.content_type = filename, content_type

    def size(self):
        """The bytes it keeps."""
        return len(self.body) + 200

    def response(self, request):
        """The file as an attachment, compressed when the phone accepts gzip."""
        if ACCEPTS_GZIP.search(request.META.get("HTTP_ACCEPT_ENCODING", "")):
            response = HttpResponse(self.body, content_type=self.content_type)
            response["Content-Encoding"] = "gzip"
        else:
            response = HttpResponse(gzip.decompress(self.body), content_type=self.content_type)
        response["Content-Disposition"] = f'attachment; filename="{self.filename}"'
        patch_vary_headers(response, ("Accept-Encoding",))
        return response
