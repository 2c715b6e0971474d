{{ docs }}#![no_std]
#![warn(missing_docs)]

#[cfg(feature = "std")]
extern crate std;
{% if std_calls %}
#[cfg(not(feature = "std"))]
compile_error!({{ std_error }});
{% endif %}
// The emitted module, verbatim: `cargo fmt` leaves it as generated.
#[rustfmt::skip]
pub mod {{ sys }};
pub use self::{{ sys }}::*;
