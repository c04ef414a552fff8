//! The crate's events, through `tracing` (feature `tracing`, on by default): an
//! application's own subscriber sees them, and they cost a relaxed load each when none
//! listens. Without the feature they compile to nothing.

/// `event!(level, fields..., message)`: `tracing::event!` at `tracing::Level::level`,
/// or nothing without the feature.
macro_rules! event {
    ($level:ident, $($rest:tt)*) => {{
        #[cfg(feature = "tracing")]
        tracing::event!(tracing::Level::$level, $($rest)*);
    }};
}

pub(crate) use event;
