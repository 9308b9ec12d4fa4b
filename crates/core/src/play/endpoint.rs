//! The endpoint player: a chat model behind an OpenAI-compatible endpoint, playing through
//! the same [`Player`] seam as everyone else. The conversation it sends is the trial's own
//! messages (after an optional system prompt); the HTTP work is [`crate::model::call::complete`] over any
//! [`Transport`] (the browser's fetch, a native client, or a scripted one in tests).

use crate::maze::image::grid_data_url;
use crate::model::call::ChatEvent;
use crate::model::error::ChatError;
use crate::model::form::{refuses_form, spellings, FormRequest, Spelling, ToolCall};
use crate::model::reply::{EmptyReason, EndpointInfo, ReplyMeta};
use crate::model::request::ChatMessage;
use crate::model::response::ChatReply;
use crate::model::retry::RetryNotice;
use crate::model::settings::EndpointSettings;
use crate::model::transport::Transport;
use crate::play::answer::{AnswerMode, FormAnswer, Source, StepDown, Transcriber};
use crate::play::answer_mode::{
    context, form_request, kind, note, schema_answer, transcription_prompt,
};
use crate::play::player::PlayerKind;
use crate::play::player::{Player, PlayerError, PlayerEvent, Reply};
use crate::play::transcript::Role;
use crate::play::trial::{ApiFailure, Trial};
use crate::verify::form::{FormContext, FormKind};

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

/// How an endpoint player gives its answers: the mode, the spelling a setting names to
/// start from, the transcriber's model (`transcribed`; none: the player's own), and how
/// far each chain of spellings has stepped down in this trial.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AnswerSettings {
    /// The mode asked.
    pub mode: AnswerMode,
    /// The spelling to try first (none: the preset's first, [`spellings`]).
    pub first: Option<Spelling>,
    /// The model that transcribes (none: the player's own).
    pub transcriber: Option<String>,
}

/// A chat model as a player, on its own or in a batch's lane.
pub struct EndpointPlayer<T: Transport, L: Lane<T> = ()> {
    transport: T,
    settings: EndpointSettings,
    api_key: String,
    system_prompt: Option<String>,
    lane: L,
    calls: u32,
    answers: AnswerSettings,
    /// Where the answer's and the transcription's spellings stand (refusals step them on,
    /// for the rest of the trial).
    at: [usize; 2],
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
            answers: AnswerSettings::default(),
            at: [0, 0],
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
            answers: self.answers,
            at: self.at,
        }
    }
}

impl<T: Transport, L: Lane<T>> EndpointPlayer<T, L> {
    /// The same player giving its answers as `answers` say (`free` by default).
    pub fn answering(mut self, answers: AnswerSettings) -> Self {
        self.answers = answers;
        self
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

    /// The chat messages for the trial's conversation so far. A reply that called a
    /// function carries its call, and the trial's next prompt goes back as the call's
    /// result (a `tool` message), as an agent harness holds the conversation.
    pub fn messages(&self, trial: &Trial) -> Vec<ChatMessage> {
        let mut out: Vec<ChatMessage> = self
            .system_prompt
            .iter()
            .filter(|s| !s.trim().is_empty())
            .map(|s| ChatMessage::system(s.clone()))
            .collect();
        let mut answering: Option<String> = None;
        for t in trial.turns() {
            let mut m = ChatMessage {
                role: match t.message.role {
                    Role::User => "user".into(),
                    Role::Assistant => "assistant".into(),
                },
                content: t.message.content.clone(),
                image: t.image.as_ref().map(grid_data_url),
                tool_calls: Vec::new(),
                tool_call_id: None,
            };
            match t.message.role {
                Role::Assistant => {
                    answering = None;
                    let call = t.form.as_deref().and_then(|f| {
                        Some((f.tool.clone()?, f.call_id.clone()?, f.answer.clone()))
                    });
                    if let Some((name, id, arguments)) = call {
                        m.tool_calls = vec![ToolCall {
                            id: id.clone(),
                            name,
                            arguments: arguments.unwrap_or_default(),
                        }];
                        answering = Some(id);
                    }
                }
                Role::User => {
                    if let Some(id) = answering.take() {
                        m.role = "tool".into();
                        m.tool_call_id = Some(id);
                    }
                }
            }
            out.push(m);
        }
        out
    }

    /// One chat call of the trial: the lane's wait before every call but the trial's
    /// first, then the request, with `form` when one is asked.
    async fn call(
        &mut self,
        messages: &[ChatMessage],
        settings: &EndpointSettings,
        form: Option<&FormRequest>,
        on_event: &mut dyn FnMut(PlayerEvent),
    ) -> Result<ChatReply, ChatError> {
        if self.calls > 0 {
            self.lane.before_call(&self.transport).await;
        }
        self.calls += 1;
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
        crate::model::call::complete_with(
            &self.transport,
            settings,
            &self.api_key,
            messages,
            form.filter(|f| f.spelling.asks_endpoint()),
            &mut forward,
        )
        .await
    }

    /// A call asking for `kind`'s form under `mode`, down the chain of spellings `which`
    /// (0: the answer's, 1: the transcription's) from where it stands, stepping down on
    /// each refusal; `messages` makes the conversation for the mode a spelling asks for.
    /// Returns the reply (or the last error), the spelling it was asked in, and the
    /// refusals met.
    async fn call_down(
        &mut self,
        which: usize,
        (kind, ctx): (FormKind, &FormContext),
        settings: &EndpointSettings,
        messages: &dyn Fn(AnswerMode) -> Vec<ChatMessage>,
        on_event: &mut dyn FnMut(PlayerEvent),
    ) -> (Result<ChatReply, ChatError>, Spelling, Vec<StepDown>) {
        let mode = self.answers.mode;
        let chain = spellings(
            self.settings.preset,
            mode == AnswerMode::Tool && which == 0,
            self.answers.first,
        );
        let mut stepped = Vec::new();
        loop {
            let at = self.at[which].min(chain.len() - 1);
            let spelling = chain[at];
            let now = mode.of_spelling(spelling);
            let form = form_request(kind, ctx, now, spelling);
            let result = self
                .call(&messages(now), settings, Some(&form), &mut *on_event)
                .await;
            match result {
                Err(e) if refuses_form(&e) && spelling.asks_endpoint() && at + 1 < chain.len() => {
                    stepped.push(StepDown {
                        form: spelling,
                        status: e.status(),
                        error: e
                            .detail()
                            .map_or_else(|| e.message(settings.preset), str::to_string),
                    });
                    self.at[which] = at + 1;
                }
                other => return (other, spelling, stepped),
            }
        }
    }

    /// A reply under `schema` or `tool`: the conversation with the words of the form in
    /// effect added to the pending prompt, the form asked, stepping down on refusals.
    async fn respond_held(
        &mut self,
        trial: &Trial,
        on_event: &mut dyn FnMut(PlayerEvent),
    ) -> Result<Reply, PlayerError> {
        let (kind, ctx) = (kind(trial), context(trial));
        let base = self.messages(trial);
        let messages = |now: AnswerMode| {
            let mut m = base.clone();
            if let (Some(last), Some(words)) = (m.last_mut(), note(kind, &ctx, now)) {
                last.content.push_str(&words);
            }
            m
        };
        let settings = self.settings.clone();
        let (result, spelling, stepped) = self
            .call_down(0, (kind, &ctx), &settings, &messages, on_event)
            .await;
        let reply = result.map_err(|e| api_failure(e, &settings))?;
        let mode = self.answers.mode.of_spelling(spelling);
        let (answer, source, call) = if spelling.is_tool() {
            let call = reply
                .tool_calls
                .iter()
                .find(|c| c.name == kind.function())
                .or(reply.tool_calls.first())
                .cloned();
            (
                call.as_ref().map(|c| c.arguments.clone()),
                Source::ToolCall,
                call,
            )
        } else {
            let (a, s) = schema_answer(&reply.content, reply.reasoning.as_deref());
            (a, s, None)
        };
        let mut r = player_reply(Ok(reply), &settings)?;
        r.form = Some(FormAnswer {
            mode,
            spelling,
            answer,
            source,
            call,
            stepped_down: stepped,
            transcriber: None,
            error: None,
        });
        Ok(r)
    }

    /// A reply under `transcribed`: the free answer, then a second call holding only that
    /// reply, which copies its answer into the schema (by the transcriber's model). A
    /// failed transcription leaves the free reading, and says why.
    async fn respond_transcribed(
        &mut self,
        trial: &Trial,
        on_event: &mut dyn FnMut(PlayerEvent),
    ) -> Result<Reply, PlayerError> {
        let (kind, ctx) = (kind(trial), context(trial));
        let base = self.messages(trial);
        let settings = self.settings.clone();
        let free = self.call(&base, &settings, None, on_event).await;
        let mut r = player_reply(free, &settings)?;
        let question = vec![ChatMessage::user(transcription_prompt(kind, &ctx, &r.text))];
        let transcriber = EndpointSettings {
            model: self
                .answers
                .transcriber
                .clone()
                .filter(|m| !m.trim().is_empty())
                .unwrap_or_else(|| settings.model.clone()),
            ..settings.clone()
        };
        let (result, spelling, stepped) = self
            .call_down(
                1,
                (kind, &ctx),
                &transcriber,
                &|_: AnswerMode| question.clone(),
                &mut |_: PlayerEvent| {},
            )
            .await;
        let (answer, meta, error) = match result {
            Ok(t) => {
                let meta = reply_meta(&t, transcriber.max_tokens);
                (
                    schema_answer(&t.content, t.reasoning.as_deref()).0,
                    meta,
                    None,
                )
            }
            Err(ChatError::Aborted(_)) => return Err(PlayerError::Stopped),
            Err(e) => (
                None,
                ReplyMeta::default(),
                Some(e.message(transcriber.preset)),
            ),
        };
        r.form = Some(FormAnswer {
            mode: AnswerMode::Transcribed,
            spelling,
            answer,
            source: Source::Transcription,
            call: None,
            stepped_down: stepped,
            transcriber: Some(Transcriber {
                model: transcriber.model.clone(),
                meta,
            }),
            error,
        });
        Ok(r)
    }
}

/// A chat call's error as a player's: a stop, or an API failure with what to do.
fn api_failure(e: ChatError, settings: &EndpointSettings) -> PlayerError {
    match player_reply(Err(e), settings) {
        Err(p) => p,
        Ok(_) => PlayerError::Stopped,
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
            form: None,
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
        match self.answers.mode {
            AnswerMode::Free => {
                let messages = self.messages(trial);
                let settings = self.settings.clone();
                let result = self.call(&messages, &settings, None, on_event).await;
                player_reply(result, &self.settings)
            }
            AnswerMode::Schema | AnswerMode::Tool => self.respond_held(trial, on_event).await,
            AnswerMode::Transcribed => self.respond_transcribed(trial, on_event).await,
        }
    }
}
