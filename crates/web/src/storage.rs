//! The browser's IndexedDB, as the app uses it: string keys and JSON-text values in a few
//! object stores, each operation one short transaction (nothing else is awaited inside
//! one, so none goes inactive). Storage failures (quota, private mode, a blocked upgrade)
//! come back as [`StorageError`]s whose messages say what to do.

use js_sys::{Array, Promise};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{IdbDatabase, IdbKeyRange, IdbObjectStore, IdbRequest, IdbTransactionMode};

/// The database's name.
pub const DB_NAME: &str = "shapemaze";
/// Its schema version (bumped when a store is added).
pub const DB_VERSION: u32 = 1;
/// Experiments (their designs and states), keyed by experiment id.
pub const EXPERIMENTS: &str = "experiments";
/// Trial records, keyed `{experiment id}/{trial id}`.
pub const TRIALS: &str = "trials";
/// Study participants' data, keyed by the core's `StudyKey`: read and written through the
/// study's typed store (`study::store`) only.
pub const STUDY: &str = "study";
const STORES: [&str; 3] = [EXPERIMENTS, TRIALS, STUDY];

/// Why storage failed, for people.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StorageError {
    /// The browser offers no IndexedDB here.
    Unavailable,
    /// A request failed: what was being done, and the browser's error name and message.
    Failed {
        /// What was being done ("open the database", "save", ...).
        doing: String,
        /// The DOMException's name (`QuotaExceededError`, ...).
        name: String,
        /// Its message.
        message: String,
    },
}

impl std::fmt::Display for StorageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StorageError::Unavailable => f.write_str("This browser offers no storage (IndexedDB) here: use a normal window of a current browser, with site data allowed."),
            StorageError::Failed { doing, name, message } => {
                let advice = match name.as_str() {
                    "QuotaExceededError" => "The browser's storage for this site is full: export and delete old experiments, or allow this site more storage.",
                    "InvalidStateError" | "SecurityError" => "The browser refuses storage here (a private window, or storage blocked for this site): allow site data, or use a normal window.",
                    "VersionError" => "Another tab holds an older version of the app open: close the other Shapemaze tabs and reload.",
                    _ => "Reload the page; if it keeps failing, export what you have.",
                };
                write!(
                    f,
                    "Could not {doing} in the browser's storage ({name}: {message}). {advice}"
                )
            }
        }
    }
}

fn describe(e: &JsValue, doing: &str) -> StorageError {
    let (name, message) = e
        .dyn_ref::<web_sys::DomException>()
        .map(|d| (d.name(), d.message()))
        .unwrap_or_else(|| ("Error".into(), format!("{e:?}")));
    StorageError::Failed {
        doing: doing.to_string(),
        name,
        message,
    }
}

/// Resolves with the request's result, or rejects with its error.
async fn done(req: &IdbRequest, doing: &str) -> Result<JsValue, StorageError> {
    let promise = Promise::new(&mut |resolve, reject| {
        let r = req.clone();
        let ok = Closure::once_into_js(move |_: web_sys::Event| {
            let _ = resolve.call1(&JsValue::NULL, &r.result().unwrap_or(JsValue::UNDEFINED));
        });
        let r = req.clone();
        let fail = Closure::once_into_js(move |_: web_sys::Event| {
            let err = r
                .error()
                .ok()
                .flatten()
                .map(JsValue::from)
                .unwrap_or(JsValue::UNDEFINED);
            let _ = reject.call1(&JsValue::NULL, &err);
        });
        req.set_onsuccess(Some(ok.unchecked_ref()));
        req.set_onerror(Some(fail.unchecked_ref()));
    });
    JsFuture::from(promise)
        .await
        .map_err(|e| describe(&e, doing))
}

/// An open database.
#[derive(Clone, Debug)]
pub struct Db {
    db: IdbDatabase,
}

impl Db {
    /// Opens (and on first use creates) the app's database.
    pub async fn open() -> Result<Db, StorageError> {
        let factory = web_sys::window()
            .and_then(|w| w.indexed_db().ok().flatten())
            .ok_or(StorageError::Unavailable)?;
        let req = factory
            .open_with_u32(DB_NAME, DB_VERSION)
            .map_err(|e| describe(&e, "open the database"))?;
        let upgrade_req = req.clone();
        let upgrade = Closure::<dyn FnMut(web_sys::Event)>::new(move |_| {
            if let Ok(result) = upgrade_req.result() {
                let db: IdbDatabase = result.unchecked_into();
                let names = db.object_store_names();
                for store in STORES {
                    if !names.contains(store) {
                        let _ = db.create_object_store(store);
                    }
                }
            }
        });
        req.set_onupgradeneeded(Some(upgrade.as_ref().unchecked_ref()));
        let blocked = Closure::<dyn FnMut(web_sys::Event)>::new(|_| {});
        req.set_onblocked(Some(blocked.as_ref().unchecked_ref()));
        let result = done(&req, "open the database").await;
        req.set_onupgradeneeded(None);
        req.set_onblocked(None);
        drop((upgrade, blocked));
        Ok(Db {
            db: result?.unchecked_into(),
        })
    }

    fn store(&self, name: &str, mode: IdbTransactionMode) -> Result<IdbObjectStore, StorageError> {
        self.db
            .transaction_with_str_and_mode(name, mode)
            .and_then(|t| t.object_store(name))
            .map_err(|e| describe(&e, "start a transaction"))
    }

    /// Writes `value` (JSON text) under `key`, replacing what was there.
    pub async fn put(&self, store: &str, key: &str, value: &str) -> Result<(), StorageError> {
        let s = self.store(store, IdbTransactionMode::Readwrite)?;
        let req = s
            .put_with_key(&JsValue::from_str(value), &JsValue::from_str(key))
            .map_err(|e| describe(&e, "save"))?;
        done(&req, "save").await.map(|_| ())
    }

    /// Writes several entries in one transaction (all or none).
    pub async fn put_all(
        &self,
        store: &str,
        entries: &[(String, String)],
    ) -> Result<(), StorageError> {
        if entries.is_empty() {
            return Ok(());
        }
        let s = self.store(store, IdbTransactionMode::Readwrite)?;
        let mut last = None;
        for (k, v) in entries {
            last = Some(
                s.put_with_key(&JsValue::from_str(v), &JsValue::from_str(k))
                    .map_err(|e| describe(&e, "save"))?,
            );
        }
        match last {
            Some(req) => done(&req, "save").await.map(|_| ()),
            None => Ok(()),
        }
    }

    /// The value under `key`, if any.
    pub async fn get(&self, store: &str, key: &str) -> Result<Option<String>, StorageError> {
        let s = self.store(store, IdbTransactionMode::Readonly)?;
        let req = s
            .get(&JsValue::from_str(key))
            .map_err(|e| describe(&e, "read"))?;
        Ok(done(&req, "read").await?.as_string())
    }

    fn prefix_range(prefix: &str) -> Result<IdbKeyRange, StorageError> {
        // Every key that starts with `prefix`: from it up to it followed by the highest
        // code point.
        IdbKeyRange::bound(
            &JsValue::from_str(prefix),
            &JsValue::from_str(&format!("{prefix}\u{10FFFF}")),
        )
        .map_err(|e| describe(&e, "read"))
    }

    /// Every `(key, value)` whose key starts with `prefix`, in key order.
    pub async fn entries(
        &self,
        store: &str,
        prefix: &str,
    ) -> Result<Vec<(String, String)>, StorageError> {
        let range = Self::prefix_range(prefix)?;
        let s = self.store(store, IdbTransactionMode::Readonly)?;
        let keys_req = s
            .get_all_keys_with_key(&range)
            .map_err(|e| describe(&e, "read"))?;
        let values_req = s
            .get_all_with_key(&range)
            .map_err(|e| describe(&e, "read"))?;
        let keys: Array = done(&keys_req, "read").await?.unchecked_into();
        let values: Array = done(&values_req, "read").await?.unchecked_into();
        Ok(keys
            .iter()
            .zip(values.iter())
            .filter_map(|(k, v)| Some((k.as_string()?, v.as_string()?)))
            .collect())
    }

    /// The keys that start with `prefix`, in order.
    pub async fn keys(&self, store: &str, prefix: &str) -> Result<Vec<String>, StorageError> {
        let range = Self::prefix_range(prefix)?;
        let s = self.store(store, IdbTransactionMode::Readonly)?;
        let req = s
            .get_all_keys_with_key(&range)
            .map_err(|e| describe(&e, "read"))?;
        let keys: Array = done(&req, "read").await?.unchecked_into();
        Ok(keys.iter().filter_map(|k| k.as_string()).collect())
    }

    /// Deletes the entry under `key`.
    pub async fn delete(&self, store: &str, key: &str) -> Result<(), StorageError> {
        let s = self.store(store, IdbTransactionMode::Readwrite)?;
        let req = s
            .delete(&JsValue::from_str(key))
            .map_err(|e| describe(&e, "delete"))?;
        done(&req, "delete").await.map(|_| ())
    }

    /// Deletes every entry whose key starts with `prefix`.
    pub async fn delete_prefix(&self, store: &str, prefix: &str) -> Result<(), StorageError> {
        let range = Self::prefix_range(prefix)?;
        let s = self.store(store, IdbTransactionMode::Readwrite)?;
        let req = s.delete(&range).map_err(|e| describe(&e, "delete"))?;
        done(&req, "delete").await.map(|_| ())
    }
}
