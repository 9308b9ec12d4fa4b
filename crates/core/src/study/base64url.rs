//! base64url, as study links carry a study.

/// base64url without padding (the base64 crate's).
pub fn base64url_encode(bytes: &[u8]) -> String {
    use base64::Engine;
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

/// Decodes base64url or standard base64, padding optional; `None` for anything else
/// (the base64 crate's, its trailing bits not checked).
pub fn base64url_decode(text: &str) -> Option<Vec<u8>> {
    use base64::alphabet::{STANDARD, URL_SAFE};
    use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
    use base64::Engine;
    let config = GeneralPurposeConfig::new()
        .with_decode_padding_mode(DecodePaddingMode::RequireNone)
        .with_decode_allow_trailing_bits(true);
    let text = text.trim_end_matches('=');
    [URL_SAFE, STANDARD]
        .iter()
        .find_map(|a| GeneralPurpose::new(a, config).decode(text).ok())
}
