//! The framer's bytes: its own buffer over a reader, or a whole mapped
//! file.

use std::sync::Arc;

use crate::input::Mapped;

/// The framer's bytes: its own buffer over a reader, or a whole mapped
/// file.
pub(super) enum Buffer {
    Owned(Vec<u8>),
    Mapped(Arc<Mapped>),
}

impl std::ops::Deref for Buffer {
    type Target = [u8];

    #[inline]
    fn deref(&self) -> &[u8] {
        match self {
            Buffer::Owned(buf) => buf,
            Buffer::Mapped(mapped) => mapped.bytes(),
        }
    }
}

impl std::fmt::Debug for Buffer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Buffer::Owned(buf) => write!(f, "Owned({} bytes)", buf.len()),
            Buffer::Mapped(mapped) => mapped.fmt(f),
        }
    }
}
