//! The limits that keep the shop's input bounded and its guessable secrets unguessable, in one
//! place (`docs/api.md`, "Sessions" and "Limits"): the longest text each free-text field takes,
//! the longest id list, the rates of codes, guesses and reports, the members' daily upload
//! quotas, the sessions' lifetimes, how long records are kept; the settings among them read
//! from the environment; and the one counter every rate is kept with.

use crate::db::Db;

/// The settings of this module that the environment may change.
#[derive(Clone, Copy, Debug)]
pub struct Security {
    /// `SMS_LOG_CODES=1`: verification codes are written to the log (development: there is no
    /// SMS gateway). Otherwise the log says a code was sent, never which.
    pub sms_log_codes: bool,
    /// `SESSION_IDLE_SECONDS` (default 7200): a session unused this long ends.
    pub session_idle_seconds: i64,
    /// `RETENTION_DAYS` (default 90): page views and client reports older than this are
    /// deleted.
    pub retention_days: i64,
    /// `UPLOADS_PER_DAY` (default 50): files one member may upload in the shop's day.
    pub uploads_per_day: i64,
    /// `UPLOAD_BYTES_PER_DAY` (default 50 MiB): bytes one member may upload in the shop's day.
    pub upload_bytes_per_day: i64,
    /// `UPLOAD_MIN_FREE_BYTES` (default 1 GiB): below this much free space on the disk of
    /// `DATA_DIR/uploads`, uploads are refused (507) before anything is written.
    pub upload_min_free_bytes: i64,
}

impl Default for Security {
    fn default() -> Security {
        Security {
            sms_log_codes: false,
            session_idle_seconds: 2 * 3600,
            retention_days: 90,
            uploads_per_day: 50,
            upload_bytes_per_day: 50 * 1024 * 1024,
            upload_min_free_bytes: 1024 * 1024 * 1024,
        }
    }
}

impl Security {
    pub fn from_env() -> anyhow::Result<Security> {
        let defaults = Security::default();
        let number = |name: &str, default: i64| -> anyhow::Result<i64> {
            match std::env::var(name) {
                Ok(text) if !text.trim().is_empty() => match text.trim().parse::<i64>() {
                    Ok(value) if value > 0 => Ok(value),
                    _ => anyhow::bail!("{name} must be a positive whole number, got {text}"),
                },
                _ => Ok(default),
            }
        };
        Ok(Security {
            sms_log_codes: std::env::var("SMS_LOG_CODES").is_ok_and(|value| value.trim() == "1"),
            session_idle_seconds: number("SESSION_IDLE_SECONDS", defaults.session_idle_seconds)?,
            retention_days: number("RETENTION_DAYS", defaults.retention_days)?,
            uploads_per_day: number("UPLOADS_PER_DAY", defaults.uploads_per_day)?,
            upload_bytes_per_day: number("UPLOAD_BYTES_PER_DAY", defaults.upload_bytes_per_day)?,
            upload_min_free_bytes: number("UPLOAD_MIN_FREE_BYTES", defaults.upload_min_free_bytes)?,
        })
    }
}

/// A session lasts at most 7 days from login, however busy (the idle limit is a setting).
pub const SESSION_SECONDS: i64 = 7 * 86_400;
/// A session's `last_seen` is written at most once a minute.
pub const SESSION_TOUCH_SECONDS: i64 = 60;

/// The longest list of ids one request may name (`ids`, `goods_ids`, `other_user_ids`).
pub const IDS_MAX: usize = 500;

/// A free-text field: its form name, its Chinese label, the most characters it takes, and
/// whether it takes several lines (a text area) or one (an input).
#[derive(Clone, Copy, Debug)]
pub struct Text {
    pub field: &'static str,
    pub label: &'static str,
    pub max: usize,
    pub lines: bool,
}

impl Text {
    /// A one-line field: no control character at all, line breaks and tabs included.
    pub const fn new(field: &'static str, label: &'static str, max: usize) -> Text {
        Text { field, label, max, lines: false }
    }

    /// A field of several lines: line breaks (`\n`, `\r`) and tabs are its only control
    /// characters.
    pub const fn lines(field: &'static str, label: &'static str, max: usize) -> Text {
        Text { field, label, max, lines: true }
    }

    /// The 422 message for a value over the limit: `联系人不能超过30字`.
    pub fn message(&self) -> String {
        format!("{}不能超过{}字", self.label, self.max)
    }

    /// Why `value` is refused, or `None`: longer than the limit (`联系人不能超过30字`), or
    /// holding a control character the field does not take (`收货人不能包含控制字符`). Member
    /// text ends up on operators' terminals (`origin admin`), in logs and in PDFs, where an
    /// escape sequence (ANSI colours, OSC 52 writing the clipboard, the one-character C1 CSI)
    /// would be obeyed, not shown.
    pub fn refusal(&self, value: &str) -> Option<String> {
        if value.chars().count() > self.max {
            Some(self.message())
        } else if value.chars().any(|c| is_refused_control(c, self.lines)) {
            Some(format!("{}不能包含控制字符", self.label))
        } else {
            None
        }
    }
}

/// A control character (C0, DEL or C1: Unicode's `Cc`) that free text does not take: every one
/// but a line break and a tab in a field of several lines.
pub fn is_refused_control(c: char, lines: bool) -> bool {
    c.is_control() && !(lines && matches!(c, '\n' | '\r' | '\t'))
}

/// Every free-text field of the API and its limit, in characters.
pub mod text {
    use super::Text;

    /// The login name: a username or a phone number.
    pub const ACCOUNT: Text = Text::new("username", "账号", 50);
    /// A password as typed at login (new passwords follow the engine's 6–20 rule).
    pub const PASSWORD: Text = Text::new("password", "密码", 100);
    pub const OLD_PASSWORD: Text = Text::new("old_password", "原密码", 100);
    pub const CODE: Text = Text::new("code", "验证码", 10);
    pub const COMPANY: Text = Text::new("company", "企业名称", 100);
    pub const NAME: Text = Text::new("name", "联系人", 30);
    pub const EMAIL: Text = Text::new("email", "邮箱", 100);
    pub const STORE: Text = Text::new("stores", "门店名称", 100);
    /// The qualification documents' numbers.
    pub const LICENCE: Text = Text::new("licence", "药品经营许可证编号", 50);
    pub const BUSINESS: Text = Text::new("business", "营业执照编号", 50);
    pub const GSP: Text = Text::new("gsp", "GSP证书编号", 50);
    /// An order's remark.
    pub const REMARK: Text = Text::lines("remark", "备注", 200);
    /// A search keyword.
    pub const KEYWORD: Text = Text::new("keyword", "关键词", 100);
    /// Statistics: a page view's route, path and title; a report's kind, path and detail.
    pub const ROUTE: Text = Text::new("route", "路由", 100);
    pub const PATH: Text = Text::new("path", "页面路径", 500);
    pub const TITLE: Text = Text::new("title", "页面标题", 200);
    pub const KIND: Text = Text::new("kind", "类型", 40);
    pub const DETAIL: Text = Text::lines("detail", "详情", 8000);
    /// A delivery address and a store.
    pub const CONTACT: Text = Text::new("contact", "收货人", 30);
    pub const PROVINCE: Text = Text::new("province", "省份", 20);
    pub const CITY: Text = Text::new("city", "城市", 20);
    pub const DISTRICT: Text = Text::new("district", "区县", 20);
    pub const STREET: Text = Text::new("detail", "详细地址", 120);
    pub const STORE_NAME: Text = Text::new("name", "门店名称", 100);
    pub const STORE_CONTACT: Text = Text::new("contact", "门店联系人", 30);
    pub const STORE_ADDRESS: Text = Text::new("address", "门店地址", 200);
    /// A qualification certificate's number.
    pub const CERTIFICATE: Text = Text::new("number", "证件编号", 50);
    /// The scope a certificate states, as printed on it.
    pub const CERTIFICATE_SCOPE: Text = Text::lines("scope", "证载经营范围", 500);
    /// A licence number asked at registration by buyer type (clinics and hospitals).
    pub const PRACTICE: Text = Text::new("practice", "医疗机构执业许可证登记号", 50);
    /// Feedback, an after-sales message, a return's description.
    pub const FEEDBACK: Text = Text::lines("body", "反馈内容", 1000);
    pub const CASE_MESSAGE: Text = Text::lines("body", "问题描述", 1000);
    pub const RETURN_DESCRIPTION: Text = Text::lines("description", "问题描述", 500);
    /// An e-invoice request.
    pub const INVOICE_TITLE: Text = Text::new("title", "发票抬头", 100);
    pub const TAX_NO: Text = Text::new("tax_no", "纳税人识别号", 20);
    pub const INVOICE_EMAIL: Text = Text::new("email", "接收邮箱", 100);
    pub const REGISTERED_ADDRESS: Text = Text::new("registered_address", "注册地址", 200);
    pub const REGISTERED_PHONE: Text = Text::new("registered_phone", "注册电话", 30);
    pub const BANK: Text = Text::new("bank", "开户银行", 100);
    pub const BANK_ACCOUNT: Text = Text::new("bank_account", "银行账号", 40);
    /// A wanted variety (品种求购).
    pub const WANTED_NAME: Text = Text::new("name", "品种名称", 50);
    pub const WANTED_SCCJ: Text = Text::new("sccj", "生产厂家", 100);
    pub const WANTED_YPGG: Text = Text::new("ypgg", "规格", 50);
    pub const WANTED_REMARK: Text = Text::lines("remark", "备注", 200);
    /// Who signs the electronic agreement.
    pub const SIGNER: Text = Text::new("signer", "签署人", 30);
}

/// The most delivery addresses a member keeps.
pub const ADDRESSES_MAX: i64 = 20;

/// The most stores a multi-store registration names.
pub const STORES_MAX: usize = 50;

/// A rate: at most `limit` hits in `window` seconds, per key.
#[derive(Clone, Copy, Debug)]
pub struct Rate {
    pub prefix: &'static str,
    pub limit: i64,
    pub window: i64,
}

const DAY: i64 = 86_400;

/// Codes sent to one phone in a day.
pub const CODES_PER_PHONE: Rate = Rate { prefix: "code-phone", limit: 10, window: DAY };
/// Codes sent at the request of one client address in a day.
pub const CODES_PER_ADDRESS: Rate = Rate { prefix: "code-address", limit: 20, window: DAY };
/// Current-password checks of one signed-in member in 15 minutes (`resetPassword`, and
/// `updateUserInfo` when it changes the phone).
pub const PASSWORD_CHECKS: Rate = Rate { prefix: "old-password", limit: 5, window: 15 * 60 };
/// Phone lookups (`GET /api/user/phone/{value}`, and the answers of codes, registration and
/// password reset that say whether a phone is registered) per client address, a minute and a
/// day; and per signed-in member, a minute.
pub const LOOKUPS_PER_ADDRESS: Rate = Rate { prefix: "lookup-address", limit: 10, window: 60 };
pub const LOOKUPS_PER_ADDRESS_DAY: Rate = Rate { prefix: "lookup-address-day", limit: 100, window: DAY };
pub const LOOKUPS_PER_MEMBER: Rate = Rate { prefix: "lookup-member", limit: 10, window: 60 };

/// For a day after a phone change, the password is not reset through the new phone.
pub const PHONE_CHANGE_HOLD: i64 = DAY;
/// Page views and reports from one client address in a minute.
pub const STATS_PER_ADDRESS: Rate = Rate { prefix: "stat-address", limit: 120, window: 60 };

/// Wrong guesses a verification code survives: at most this many are ever compared. Guesses
/// count per code, not per phone: a code guessed at dies, and the owner's next one works.
pub const CODE_ATTEMPTS: i64 = 5;

/// Failed passwords slow, never lock: an account and a client address each take this many
/// failures freely, then wait before each next attempt ([`login_wait`]).
pub const LOGIN_FREE_PER_ACCOUNT: i64 = 5;
pub const LOGIN_FREE_PER_ADDRESS: i64 = 10;
/// The first wait, doubled with each further failure up to [`LOGIN_WAIT_MAX`].
pub const LOGIN_WAIT_FIRST: i64 = 5;
pub const LOGIN_WAIT_MAX: i64 = 15 * 60;
/// Failures are forgotten this long after the last attempt (longer than the longest wait, so
/// that waiting it out does not start the count again).
pub const LOGIN_WINDOW: i64 = 3600;

/// The wait after `failures` failed attempts of which `free` were free: none before, then 5 s,
/// 10 s, 20 s, … up to 15 minutes.
pub fn login_wait(failures: i64, free: i64) -> i64 {
    if failures < free {
        return 0;
    }
    let doublings = (failures - free).min(20) as u32;
    (LOGIN_WAIT_FIRST << doublings).min(LOGIN_WAIT_MAX)
}

/// Idempotency keys are kept a day; spent codes a day after they were sent.
pub const IDEMPOTENCY_SECONDS: i64 = DAY;
pub const CODE_KEEP_SECONDS: i64 = DAY;

impl Rate {
    /// Counts one hit of `who` (a phone, an address, a member id) in the current window;
    /// answers whether it is over the limit. One atomic statement: parallel hits cannot all
    /// slip under it.
    pub async fn over(&self, db: &Db, who: &str) -> Result<bool, sqlx::Error> {
        Ok(hit(db, &format!("{}:{who}", self.prefix), self.window).await? > self.limit)
    }
}

/// Counts one hit under `key` in a fixed window of `window` seconds (a new window starts with
/// the first hit after the last one ended); answers the hits in the window, this one included.
pub async fn hit(db: &Db, key: &str, window: i64) -> Result<i64, sqlx::Error> {
    let time = crate::now();
    sqlx::query_scalar(
        "INSERT INTO rate_limits (key, window_end, hits) VALUES ($1, $2, 1) \
         ON CONFLICT (key) DO UPDATE SET \
           hits = CASE WHEN rate_limits.window_end > $3 THEN rate_limits.hits + 1 ELSE 1 END, \
           window_end = CASE WHEN rate_limits.window_end > $3 THEN rate_limits.window_end ELSE $2 END \
         RETURNING hits",
    )
    .bind(key)
    .bind(time + window)
    .bind(time)
    .fetch_one(&db.pool)
    .await
}
