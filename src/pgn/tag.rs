//! Tag pairs (`[Name "value"]`), kept as the raw bytes that were written.

use std::borrow::Cow;

use crate::pgn::span::Span;

/// One tag pair as written: raw name and value bytes (escapes not yet
/// resolved), in input order. Decoding happens only on request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tag<'a> {
    /// The tag name (`Event`, `WhiteElo`, …).
    pub name: &'a [u8],
    /// The value between the quotes, escapes (`\"`, `\\`) unresolved.
    pub value: &'a [u8],
    /// Where the whole tag pair (`[` to `]`) was written.
    pub span: Span,
}

impl<'a> Tag<'a> {
    /// The value bytes with `\"` and `\\` resolved.
    ///
    /// # Examples
    /// ```
    /// use pgnkit::pgn::{Span, Tag};
    /// let tag = Tag { name: b"Event", value: br#"The \"Big\" One"#, span: Span::default() };
    /// assert_eq!(&*tag.unescaped(), b"The \"Big\" One");
    /// ```
    pub fn unescaped(&self) -> Cow<'a, [u8]> {
        unescape(self.value)
    }

    /// The value as text: escapes resolved, then decoded (UTF-8, else
    /// Windows-1252).
    pub fn value_text(&self) -> Cow<'a, str> {
        value_text(self.value)
    }

    /// The name as text (names are ASCII in valid PGN).
    pub fn name_text(&self) -> Cow<'a, str> {
        decode_text(self.name)
    }

    /// Whether the tag is named `name` (exact, case-sensitive as in PGN).
    #[inline]
    pub fn is(&self, name: &str) -> bool {
        self.name == name.as_bytes()
    }
}

/// Spare room for the tags of one game after another: a game's tags
/// borrow from its text, so a list cannot outlive the game, but its
/// allocation can. [`take`](Self::take) hands out an empty list in the
/// room, [`keep`](Self::keep) takes the room back.
///
/// # Examples
/// ```
/// use pgnkit::pgn::{SpareTags, Span, Tag};
///
/// let mut spare = SpareTags::default();
/// for text in [b"Event".to_vec(), b"Site".to_vec()] {
///     let mut tags = spare.take();
///     assert!(tags.is_empty());
///     tags.push(Tag { name: &text, value: b"?", span: Span::default() });
///     spare.keep(tags);
/// }
/// ```
#[derive(Debug, Default)]
pub struct SpareTags(Vec<Tag<'static>>);

impl SpareTags {
    /// An empty list of tags in the spare room.
    pub fn take<'a>(&mut self) -> Vec<Tag<'a>> {
        recycle(std::mem::take(&mut self.0))
    }

    /// Takes back the room of `tags`.
    pub fn keep(&mut self, tags: Vec<Tag<'_>>) {
        self.0 = recycle(tags);
    }
}

/// An empty vector in the allocation of `v` (a type of the same size and
/// alignment: the standard library collects in place).
fn recycle<T, U>(mut v: Vec<T>) -> Vec<U> {
    v.clear();
    v.into_iter().filter_map(|_| None).collect()
}

/// A raw tag value as text: escapes resolved ([`unescape`]), then decoded
/// (UTF-8, else Windows-1252); what [`Tag::value_text`] gives.
///
/// # Examples
/// ```
/// use pgnkit::pgn::value_text;
/// assert_eq!(value_text(br#"Kasparov \"Gazza\""#), r#"Kasparov "Gazza""#);
/// assert_eq!(value_text(b"M\xfcller"), "M\u{fc}ller");
/// ```
pub fn value_text(raw: &[u8]) -> Cow<'_, str> {
    match unescape(raw) {
        Cow::Borrowed(bytes) => decode_text(bytes),
        Cow::Owned(bytes) => Cow::Owned(decode_text(&bytes).into_owned()),
    }
}

/// Resolves `\"` and `\\` in a raw tag value; any other backslash is kept.
pub fn unescape(raw: &[u8]) -> Cow<'_, [u8]> {
    if memchr::memchr(b'\\', raw).is_none() {
        return Cow::Borrowed(raw);
    }
    let mut out = Vec::with_capacity(raw.len());
    let mut bytes = raw.iter().copied().peekable();
    while let Some(b) = bytes.next() {
        if b == b'\\'
            && let Some(&next @ (b'"' | b'\\')) = bytes.peek()
        {
            out.push(next);
            bytes.next();
        } else {
            out.push(b);
        }
    }
    Cow::Owned(out)
}

/// Escapes `"` and `\` for writing a tag value.
pub fn escape(value: &[u8]) -> Cow<'_, [u8]> {
    if memchr::memchr2(b'"', b'\\', value).is_none() {
        return Cow::Borrowed(value);
    }
    let mut out = Vec::with_capacity(value.len() + 4);
    for &b in value {
        if b == b'"' || b == b'\\' {
            out.push(b'\\');
        }
        out.push(b);
    }
    Cow::Owned(out)
}

/// Decodes bytes as text: the one place the PGN layer turns bytes into text.
pub(crate) fn decode_text(bytes: &[u8]) -> Cow<'_, str> {
    crate::encoding::decode(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_round_trip() {
        let cases: &[(&[u8], &[u8])] = &[
            (b"plain", b"plain"),
            (br#"a \"b\" c"#, br#"a "b" c"#),
            (br"back\\slash", br"back\slash"),
            (br"lone \ kept", br"lone \ kept"),
            (br"end\", br"end\"),
        ];
        for &(raw, plain) in cases {
            assert_eq!(&*unescape(raw), plain, "{raw:?}");
            if raw != br"lone \ kept" && raw != br"end\" {
                assert_eq!(&*escape(plain), raw);
            }
        }
    }
}
