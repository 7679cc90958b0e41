//! Whole numbers in request bodies as JSON Schema reads them: `2` and `2.0` are the same integer
//! (JSON has one number type, and a schema's `"type": "integer"` accepts any number whose
//! fractional part is zero), so a client that writes `"mate_in": 2.0` is answered, not refused.
//! `2.5`, a negative number or one out of the field's range is still a 400 that says so.
//!
//! A field's range is that of the OpenAPI format its Rust type is documented with: a `u32` is an
//! `int32` (at most 2^31 - 1), a `u64` an `int64` (at most 2^63 - 1), so the document's maxima are
//! the real ones ([`Whole::MAX`]; each field also states its `maximum`).
//!
//! Used as `#[serde(deserialize_with = "whole::number")]`, or `whole::option` for optional
//! fields (with `#[serde(default)]`).

use serde::de::{Deserializer, Error, Unexpected};
use serde::Deserialize;

/// The largest float that converts to a u64 without loss of meaning (2^64 is not below it).
const U64_LIMIT: f64 = 18_446_744_073_709_551_616.0;

/// A whole-number type of a request field, with the largest value its schema format allows.
pub trait Whole: TryFrom<u64> {
    /// The largest value accepted: the maximum of the type's OpenAPI format.
    const MAX: u64;
}

impl Whole for u32 {
    const MAX: u64 = i32::MAX as u64;
}

impl Whole for u64 {
    const MAX: u64 = i64::MAX as u64;
}

impl Whole for usize {
    const MAX: u64 = i64::MAX as u64;
}

fn convert<T: Whole, E: Error>(n: serde_json::Number) -> Result<T, E> {
    let value: u64 = convert_any(n)?;
    if value > T::MAX {
        return Err(E::invalid_value(
            Unexpected::Unsigned(value),
            &"a whole number in the field's range",
        ));
    }
    T::try_from(value).map_err(|_| E::invalid_value(Unexpected::Unsigned(value), &"a whole number"))
}

fn convert_any<T: TryFrom<u64>, E: Error>(n: serde_json::Number) -> Result<T, E> {
    let expecting = "a whole number in the field's range";
    let value = if let Some(u) = n.as_u64() {
        u
    } else if let Some(i) = n.as_i64() {
        return Err(E::invalid_value(Unexpected::Signed(i), &expecting));
    } else {
        let f = n.as_f64().unwrap_or(f64::NAN);
        if f.fract() != 0.0 || !(0.0..U64_LIMIT).contains(&f) {
            return Err(E::invalid_value(Unexpected::Float(f), &expecting));
        }
        f as u64
    };
    T::try_from(value).map_err(|_| E::invalid_value(Unexpected::Unsigned(value), &expecting))
}

/// A required whole number.
pub fn number<'de, D: Deserializer<'de>, T: Whole>(d: D) -> Result<T, D::Error> {
    convert(serde_json::Number::deserialize(d)?)
}

/// An optional whole number (null or absent: `None`).
pub fn option<'de, D: Deserializer<'de>, T: Whole>(d: D) -> Result<Option<T>, D::Error> {
    Option::<serde_json::Number>::deserialize(d)?
        .map(convert)
        .transpose()
}

/// An optional whole number in the whole range of `T`, for a field whose handler checks the
/// documented range itself and answers 422 beyond it (a collection's `seed`).
pub fn option_unchecked<'de, D: Deserializer<'de>, T: TryFrom<u64>>(
    d: D,
) -> Result<Option<T>, D::Error> {
    Option::<serde_json::Number>::deserialize(d)?
        .map(convert_any)
        .transpose()
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;

    #[derive(Debug, Deserialize)]
    struct Body {
        #[serde(deserialize_with = "super::number")]
        n: u32,
        #[serde(default, deserialize_with = "super::option")]
        m: Option<u64>,
    }

    fn read(text: &str) -> Result<Body, String> {
        serde_json::from_str(text).map_err(|e| e.to_string())
    }

    #[test]
    fn integral_floats_are_integers() {
        let b = read(r#"{"n": 2.0, "m": 1e3}"#).unwrap();
        assert_eq!((b.n, b.m), (2, Some(1000)));
        let b = read(r#"{"n": 7}"#).unwrap();
        assert_eq!((b.n, b.m), (7, None));
        let b = read(r#"{"n": 7, "m": null}"#).unwrap();
        assert_eq!(b.m, None);
        let b = read(r#"{"n": 2147483647, "m": 9223372036854775807}"#).unwrap();
        assert_eq!((b.n, b.m), (i32::MAX as u32, Some(i64::MAX as u64)));
    }

    #[test]
    fn fractions_negatives_and_overflow_are_refused() {
        for bad in [
            r#"{"n": 2.5}"#,
            r#"{"n": -1}"#,
            r#"{"n": -1.0}"#,
            r#"{"n": 4294967296}"#,
            r#"{"n": 2147483648}"#,
            r#"{"n": 1, "m": 9223372036854775808}"#,
            r#"{"n": 1, "m": 18446744073709551615}"#,
            r#"{"n": 1, "m": 1.5e30}"#,
            r#"{"n": "2"}"#,
        ] {
            let e = read(bad).unwrap_err();
            assert!(
                e.contains("expected a whole number") || e.contains("invalid type"),
                "{bad}: {e}"
            );
        }
    }
}
