//! The endpoint player: a chat model behind an OpenAI-compatible endpoint, playing through
//! the same [`Player`] seam as everyone else. The conversation it sends is the trial's own
//! messages (after an optional system prompt); the HTTP work is [`crate::model::call::complete`] over any
//! [`Transport`] (the browser's fetch, a native client, or a scripted one in tests).

use crate::maze::image::grid_data_url;
use crate::model::call::ChatEvent;
use crate::model::error::ChatError;
use crate::model::reply::{EmptyReason, EndpointInfo, ReplyMeta};
use crate::model::request::ChatMessage;
use crate::model::response::ChatReply;
use crate::model::retry::RetryNotice;
use crate::model::settings::EndpointSettings;
use crate::model::transport::Transport;
use crate::play::player::PlayerKind;
use crate::play::player::{Player, PlayerError, PlayerEvent, Reply};
use crate::play::transcript::Role;
use crate::play::trial::{ApiFailure, Trial};

/// What a batch run puts around an endpoint player's calls: a wait before each call of a
/// trial after its first (a requests-per-minute limit, a server's `Retry-After` for the
/// lane), and hearing of every retry with its cause (a `429` teaches the lane its limit).
/// `()` is no lane: a player on its own (`/model`, tests).
pub trait Lane<T: Transport> {
    /// Waits until the trial's next call may go; called before every call but the first.
    fn before_call(&self, transport: &T) -> impl std::future::Future<Output = ()>;
    /// A call is retried, for the reason `notice` gives, at `now_ms`.
    fn retrying(&self, notice: &RetryNotice, now_ms: f64);
}

impl<T: Transport> Lane<T> for () {
    async fn before_call(&self, _: &T) {}
    fn retrying(&self, _: &RetryNotice, _: f64) {}
}

/// A chat model as a player, on its own or in a batch's lane.
pub struct EndpointPlayer<T: Transport, L: Lane<T> = ()> {
    transport: T,
    settings: EndpointSettings,
    api_key: String,
    system_prompt: Option<String>,
    lane: L,
    calls: u32,
}

impl<T: Transport> EndpointPlayer<T> {
    /// A player sending requests through `transport` with `settings`; `api_key` goes only
    /// into the `Authorization` header; `system_prompt`, when given, opens every request.
    pub fn new(
        transport: T,
        settings: EndpointSettings,
        api_key: String,
        system_prompt: Option<String>,
    ) -> Self {
        Self {
            transport,
            settings,
            api_key,
            system_prompt,
            lane: (),
            calls: 0,
        }
    }

    /// The same player in a batch's `lane`.
    pub fn in_lane<L: Lane<T>>(self, lane: L) -> EndpointPlayer<T, L> {
        EndpointPlayer {
            transport: self.transport,
            settings: self.settings,
            api_key: self.api_key,
            system_prompt: self.system_prompt,
            lane,
            calls: self.calls,
        }
    }
}

impl<T: Transport, L: Lane<T>> EndpointPlayer<T, L> {
    /// The transport the requests go through.
    pub fn transport(&self) -> &T {
        &self.transport
    }

    /// The endpoint's settings (never the key).
    pub fn settings(&self) -> &EndpointSettings {
        &self.settings
    }

    /// The chat messages for the trial's conversation so far.
    pub fn messages(&self, trial: &Trial) -> Vec<ChatMessage> {
        let system = self
            .system_prompt
            .iter()
            .filter(|s| !s.trim().is_empty())
            .map(|s| ChatMessage::system(s.clone()));
        system
            .chain(trial.turns().iter().map(|t| ChatMessage {
                role: match t.message.role {
                    Role::User => "user".into(),
                    Role::Assistant => "assistant".into(),
                },
                content: t.message.content.clone(),
                image: t.image.as_ref().map(grid_data_url),
            }))
            .collect()
    }
}

/// A chat call's result, for a request made with `settings`, as a player's reply: the
/// text with its metadata (an empty answer is an answer), a stop, or an API failure with
/// what to do about it (for the endpoint's preset).
pub fn player_reply(
    result: Result<ChatReply, ChatError>,
    settings: &EndpointSettings,
) -> Result<Reply, PlayerError> {
    match result {
        Ok(reply) => Ok(Reply {
            meta: Some(reply_meta(&reply, settings.max_tokens)),
            text: reply.content,
        }),
        Err(ChatError::Aborted(_)) => Err(PlayerError::Stopped),
        Err(e) => Err(PlayerError::Api(ApiFailure {
            kind: e.kind_name().to_string(),
            message: e.message(settings.preset),
            attempts: e.attempts(),
        })),
    }
}

/// What the record keeps of a reply besides its text; for an empty reply, why it is
/// empty and, when the token limit ended it, that limit (`max_tokens`, the request's).
pub fn reply_meta(reply: &ChatReply, max_tokens: u32) -> ReplyMeta {
    let empty_reason = EmptyReason::of(
        &reply.content,
        reply.finish_reason.as_deref(),
        reply.reasoning.as_deref(),
    );
    ReplyMeta {
        latency_ms: Some(reply.latency_ms),
        prompt_tokens: reply.prompt_tokens,
        completion_tokens: reply.completion_tokens,
        reasoning_tokens: reply.reasoning_tokens,
        total_tokens: reply.total_tokens,
        finish_reason: reply.finish_reason.clone(),
        reasoning: reply.reasoning.clone().filter(|r| !r.is_empty()),
        logprobs: reply.logprobs.clone(),
        attempts: Some(reply.attempts),
        streamed: Some(reply.streamed),
        empty_reason,
        max_tokens: empty_reason
            .filter(|e| e.hit_the_limit())
            .map(|_| max_tokens),
        retried: reply.retried.clone(),
        served_model: reply.served_model.clone(),
        system_fingerprint: reply.system_fingerprint.clone(),
    }
}

impl From<&EndpointSettings> for EndpointInfo {
    fn from(s: &EndpointSettings) -> Self {
        EndpointInfo {
            preset: s.preset.id().to_string(),
            base_url: s.base_url.clone(),
            model: s.model.clone(),
            temperature: s.temperature,
            top_p: s.top_p,
            max_tokens: s.max_tokens,
            seed: s.seed,
            stream: crate::model::request::effective_stream(s),
            logprobs: s.logprobs,
            thinking: crate::model::request::thinking(s),
            effort: s.effort,
            extra: s.extra.clone(),
            price: None,
        }
    }
}

impl<T: Transport, L: Lane<T>> Player for EndpointPlayer<T, L> {
    fn kind(&self) -> PlayerKind {
        PlayerKind::Endpoint
    }

    fn name(&self) -> String {
        self.settings.model.clone()
    }

    async fn respond(
        &mut self,
        trial: &Trial,
        on_event: &mut dyn FnMut(PlayerEvent),
    ) -> Result<Reply, PlayerError> {
        if self.calls > 0 {
            self.lane.before_call(&self.transport).await;
        }
        self.calls += 1;
        let messages = self.messages(trial);
        let (lane, transport) = (&self.lane, &self.transport);
        let mut forward = |ev: ChatEvent| match ev {
            ChatEvent::Retrying(notice) => {
                lane.retrying(&notice, transport.now_ms());
                on_event(PlayerEvent::Retrying(notice.to_string()))
            }
            ChatEvent::Delta { content, reasoning } => on_event(PlayerEvent::Delta {
                content: content.to_string(),
                reasoning: reasoning.to_string(),
            }),
            ChatEvent::Attempt(n) => on_event(PlayerEvent::Attempt(n)),
        };
        let result = crate::model::call::complete(
            &self.transport,
            &self.settings,
            &self.api_key,
            &messages,
            &mut forward,
        )
        .await;
        player_reply(result, &self.settings)
    }
}
