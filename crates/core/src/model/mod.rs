//! The model seam's far side: the chat client for OpenAI-compatible endpoints (presets,
//! settings, requests, responses, the streaming decoder, errors, retries and the transport
//! trait the browser and the command line implement), the metadata of one reply, and the
//! spellings that ask an endpoint to hold an answer to a form (`form.rs`). May
//! import [`crate::text`] only.

pub mod call;
pub mod effort;
pub mod error;
pub mod form;
pub mod preset;
pub mod price;
pub mod reply;
pub mod request;
pub mod response;
pub mod retry;
pub mod scripted;
pub mod settings;
pub mod stream;
#[cfg(test)]
mod test_support;
pub mod transport;
