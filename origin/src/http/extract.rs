//! Reading requests: form-encoded bodies and query strings as field lists (lists as repeated
//! keys, `ids[]=`, or comma-separated), each field read with a Chinese 422 message when wrong,
//! into the call's typed request ([`Form`], [`Query`], [`FromFields`]); and the member behind
//! the session cookie.

use std::net::SocketAddr;

use axum::extract::{ConnectInfo, FromRef, FromRequest, FromRequestParts, Request};
use axum::http::request::Parts;
use axum::http::{HeaderMap, header};
use order_check::form::{self, OrderForm};

use super::ApiContext;
use super::error::{Error, Result};
use crate::auth;
use crate::domain::catalogue::viewer::Viewer;
use crate::security::{IDS_MAX, Text};

/// The largest page number a list answers.
pub const PAGE_MAX: i64 = 100_000;

/// The fields of a form body or a query string.
#[derive(Debug, Default)]
pub struct Fields(Vec<(String, String)>);

impl Fields {
    pub fn parse(text: &str) -> Fields {
        Fields(form_urlencoded_pairs(text))
    }

    /// Every name with the value [`Fields::text`] answers for it (names in `name[]` form as
    /// `name`), absent ones left out.
    pub fn texts(&self) -> impl Iterator<Item = (&str, String)> + '_ {
        self.0.iter().map(|(key, _)| key.trim_end_matches("[]")).filter_map(|name| self.text(name).map(|value| (name, value)))
    }

    /// The last value given for `name` (also as `name[]`), trimmed; `None` when absent, empty
    /// or holding a NUL (no text field takes one, and PostgreSQL refuses it).
    pub fn text(&self, name: &str) -> Option<String> {
        self.values(name).last().map(|value| value.trim().to_owned()).filter(|value| !value.is_empty() && !value.contains('\0'))
    }

    pub fn required(&self, name: &str, label: &str) -> Result<String> {
        required(name, label, self.text(name))
    }

    /// A free-text field within its limit (`security::text`): `None` when absent, 422
    /// `<label>不能超过<max>字` when longer, `<label>不能包含控制字符` when it holds a control
    /// character the field does not take ([`checked`]).
    pub fn bounded(&self, spec: Text) -> Result<Option<String>> {
        checked(spec, self.text(spec.field))
    }

    /// A required free-text field within its limit: 422 `请填写<label>` when absent.
    pub fn required_bounded(&self, spec: Text) -> Result<String> {
        required_checked(spec, self.text(spec.field))
    }

    /// An integer field; `None` when absent.
    pub fn int(&self, name: &str, label: &str) -> Result<Option<i64>> {
        int(name, label, self.text(name))
    }

    pub fn int_or(&self, name: &str, label: &str, default: i64) -> Result<i64> {
        Ok(self.int(name, label)?.unwrap_or(default))
    }

    /// Every non-empty value given for `name` (or `name[]`), trimmed.
    pub fn all(&self, name: &str) -> Vec<String> {
        self.values(name).map(str::trim).filter(|value| !value.is_empty() && !value.contains('\0')).map(str::to_owned).collect()
    }

    /// The `page` field: 1 when absent, at most [`PAGE_MAX`] (a larger one is refused, so that
    /// an offset never overflows).
    pub fn page(&self) -> Result<i64> {
        match self.int("page", "页码")? {
            None => Ok(1),
            Some(page) if (1..=PAGE_MAX).contains(&page) => Ok(page),
            Some(_) => Err(Error::field("page", format!("页码须在1到{PAGE_MAX}之间"))),
        }
    }

    /// A list of ids: `ids=1,2,3`, `ids=1&ids=2` or `ids[]=1&ids[]=2` (`order_check::form`);
    /// at most [`IDS_MAX`] of them (422 `一次最多选择500项`).
    pub fn ids(&self, name: &str) -> Result<Vec<i64>> {
        let ids = form::ids(self.values(name)).map_err(|form::BadId| Error::field(name, form::BadId::MESSAGE))?;
        if ids.len() > IDS_MAX {
            return Err(Error::field(name, format!("一次最多选择{IDS_MAX}项")));
        }
        Ok(ids)
    }

    /// Every field as given (a signed form is verified over all of them).
    pub fn pairs(&self) -> Vec<(String, String)> {
        self.0.clone()
    }

    /// The chosen lines and expected payable of a checkout or order, read exactly as the edge
    /// read them before it let the request through.
    pub fn order_form(&self) -> Result<OrderForm> {
        Ok(OrderForm::read(self.0.iter().map(|(key, value)| (key.as_str(), value.as_str())))?)
    }

    fn values<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.0.iter().filter(move |(key, _)| form::key_is(key, name)).map(|(_, value)| value.as_str())
    }
}

/// A free-text value as [`Text::refusal`] takes it: the value, or 422 on the field with why not.
pub fn checked(spec: Text, value: Option<String>) -> Result<Option<String>> {
    match value.as_deref().and_then(|value| spec.refusal(value)) {
        Some(why) => Err(Error::field(spec.field, why)),
        None => Ok(value),
    }
}

/// A value read with [`Fields::text`], required: 422 `请填写<label>` on `name` when absent.
pub fn required(name: &str, label: &str, value: Option<String>) -> Result<String> {
    value.ok_or_else(|| Error::field(name, format!("请填写{label}")))
}

/// A value read with [`Fields::text`] as an integer ([`Fields::int`]): 422 `<label>必须是整数`
/// on `name` when it is not one.
pub fn int(name: &str, label: &str, value: Option<String>) -> Result<Option<i64>> {
    match value {
        None => Ok(None),
        Some(text) => text.parse().map(Some).map_err(|_| Error::field(name, format!("{label}必须是整数"))),
    }
}

/// A free-text value as [`Fields::required_bounded`] takes it: required, then [`checked`].
pub fn required_checked(spec: Text, value: Option<String>) -> Result<String> {
    checked(spec, value)?.ok_or_else(|| Error::field(spec.field, format!("请填写{}", spec.label)))
}

fn form_urlencoded_pairs(text: &str) -> Vec<(String, String)> {
    serde_urlencoded::from_str::<Vec<(String, String)>>(text).unwrap_or_default()
}

/// A form-encoded body (`application/x-www-form-urlencoded`).
pub struct FormFields(pub Fields);

impl<S: Send + Sync> FromRequest<S> for FormFields {
    type Rejection = Error;

    async fn from_request(request: Request, state: &S) -> Result<FormFields> {
        let body = String::from_request(request, state).await.map_err(|rejection| match rejection.status() {
            // Over the body limit (`edge::BODY_LIMIT`), whether its length was announced or not.
            axum::http::StatusCode::PAYLOAD_TOO_LARGE => Error::Refused(super::error::Refusal::TooLarge, "请求内容过大".into()),
            _ => Error::field("body", "请求内容无法读取"),
        })?;
        Ok(FormFields(Fields::parse(&body)))
    }
}

/// A call's typed request, read from its fields with today's readers ([`Fields`]): each wrong
/// field a 422 with its Chinese message, in the order the call has always checked them.
pub trait FromFields: Sized {
    fn from_fields(fields: &Fields) -> Result<Self>;
}

/// A form-encoded body read as the call's request `T`; its schema is the operation's
/// `request_body` (`application/x-www-form-urlencoded`).
pub struct Form<T>(pub T);

impl<S: Send + Sync, T: FromFields> FromRequest<S> for Form<T> {
    type Rejection = Error;

    async fn from_request(request: Request, state: &S) -> Result<Form<T>> {
        let FormFields(fields) = FormFields::from_request(request, state).await?;
        Ok(Form(T::from_fields(&fields)?))
    }
}

/// The query string read as the call's request `T`; its fields are the operation's `params`.
pub struct Query<T>(pub T);

impl<S: Send + Sync, T: FromFields> FromRequestParts<S> for Query<T> {
    type Rejection = Error;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Query<T>> {
        Ok(Query(T::from_fields(&Fields::parse(parts.uri.query().unwrap_or_default()))?))
    }
}

/// Which page of a list ([`Fields::page`]).
#[derive(Debug, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PageQuery {
    /// 页码: from 1 (absent: 1), at most 100000.
    #[param(value_type = Option<i64>, minimum = 1, maximum = 100000)]
    pub page: i64,
}

impl FromFields for PageQuery {
    fn from_fields(fields: &Fields) -> Result<PageQuery> {
        Ok(PageQuery { page: fields.page()? })
    }
}

/// Which ones of a list: `ids` ([`Fields::ids`]); absent, none named.
#[derive(Debug, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct IdsQuery {
    /// Ids (`ids=1,2`, `ids=1&ids=2`, `ids[]=1&ids[]=2`); absent: all.
    #[param(value_type = Option<Vec<i64>>)]
    pub ids: Vec<i64>,
}

impl FromFields for IdsQuery {
    fn from_fields(fields: &Fields) -> Result<IdsQuery> {
        let ids = match fields.text("ids") {
            Some(_) => fields.ids("ids")?,
            None => Vec::new(),
        };
        Ok(IdsQuery { ids })
    }
}

/// The client's address ([`client_address`]): what per-address limits count under.
pub struct ClientAddress(pub String);

impl<S: Send + Sync> FromRequestParts<S> for ClientAddress {
    type Rejection = Error;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<ClientAddress> {
        let peer = parts.extensions.get::<ConnectInfo<SocketAddr>>().map(|ConnectInfo(peer)| *peer);
        Ok(ClientAddress(client_address(&parts.headers, peer)))
    }
}

/// The logged-in member; answers 10001 when there is none.
#[derive(Clone, Copy, Debug)]
pub struct Member {
    pub id: i64,
}

/// The member if logged in.
#[derive(Clone, Copy, Debug)]
pub struct MaybeMember(pub Option<Member>);

/// The session token from the `sid` cookie.
pub fn session_token(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|cookies| cookies.split(';'))
        .filter_map(|cookie| cookie.trim().split_once('='))
        .find(|(name, _)| *name == auth::COOKIE)
        .map(|(_, value)| value.to_owned())
        .filter(|value| !value.is_empty())
}

impl<S: Send + Sync> FromRequestParts<S> for MaybeMember
where
    ApiContext: FromRef<S>,
{
    type Rejection = Error;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<MaybeMember> {
        let Some(token) = session_token(&parts.headers) else { return Ok(MaybeMember(None)) };
        let context = ApiContext::from_ref(state);
        let member = auth::session_member(&context.db, &token, context.security.session_idle_seconds).await?;
        Ok(MaybeMember(member.map(|id| Member { id })))
    }
}

impl<S: Send + Sync> FromRequestParts<S> for Member
where
    ApiContext: FromRef<S>,
{
    type Rejection = Error;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Member> {
        MaybeMember::from_request_parts(parts, state).await?.0.ok_or(Error::Unauthorized)
    }
}

impl<S: Send + Sync> FromRequestParts<S> for Viewer
where
    ApiContext: FromRef<S>,
{
    type Rejection = Error;

    /// The member if logged in, with their standing as the goods cards show it.
    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Viewer> {
        let MaybeMember(member) = MaybeMember::from_request_parts(parts, state).await?;
        let context = ApiContext::from_ref(state);
        let mut conn = context.db.pool.acquire().await?;
        Ok(Viewer::load(&mut conn, member.map(|member| member.id)).await?)
    }
}

/// The client's address: the last `X-Forwarded-For` entry (the one the edge in front of us
/// appended; earlier ones are the client's say) when present, else the peer.
pub fn client_address(headers: &HeaderMap, peer: Option<SocketAddr>) -> String {
    headers
        .get("x-forwarded-for")
        .and_then(|value| value.to_str().ok())
        .and_then(|list| list.split(',').next_back())
        .map(|first| first.trim().to_owned())
        .unwrap_or_else(|| peer.map(|peer| peer.ip().to_string()).unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_in_every_spelling() {
        let fields = Fields::parse("ids=1,2&ids[]=3&ids=4&name=+%E9%98%BF+&page=x");
        assert_eq!(fields.ids("ids").unwrap(), vec![1, 2, 3, 4]);
        assert_eq!(fields.text("name").as_deref(), Some("阿"));
        assert!(fields.int("page", "页码").is_err());
        assert_eq!(fields.int("size", "数量").unwrap(), None);
    }

    #[test]
    fn id_lists_and_texts_are_bounded() {
        let list = |count: usize| (1..=count).map(|id| id.to_string()).collect::<Vec<_>>().join(",");
        assert_eq!(Fields::parse(&format!("ids={}", list(IDS_MAX))).ids("ids").unwrap().len(), IDS_MAX);
        let Err(Error::Validation(errors)) = Fields::parse(&format!("ids={}", list(IDS_MAX + 1))).ids("ids") else { panic!() };
        assert_eq!(errors, vec![("ids".to_owned(), "一次最多选择500项".to_owned())]);
        let name = crate::security::text::NAME;
        let fields = Fields::parse(&format!("name={}", "阿".repeat(name.max)));
        assert_eq!(fields.bounded(name).unwrap().map(|value| value.chars().count()), Some(name.max));
        let fields = Fields::parse(&format!("name={}", "阿".repeat(name.max + 1)));
        let Err(Error::Validation(errors)) = fields.bounded(name) else { panic!() };
        assert_eq!(errors[0].1, "联系人不能超过30字");
        let Err(Error::Validation(errors)) = Fields::parse("").required_bounded(name) else { panic!() };
        assert_eq!(errors[0].1, "请填写联系人");
    }

    #[test]
    fn texts_take_no_control_characters() {
        let contact = crate::security::text::CONTACT;
        let remark = crate::security::text::REMARK;
        for bad in ["%1B%5B31m%E5%BC%A0", "a%1B%5D52%3Bc%3BZWNobw%3D%3D%07", "a%C2%9Bb", "a%7Fb", "a%0Ab", "a%09b"] {
            let Err(Error::Validation(errors)) = Fields::parse(&format!("contact={bad}")).bounded(contact) else { panic!("{bad}") };
            assert_eq!(errors, vec![("contact".to_owned(), "收货人不能包含控制字符".to_owned())]);
        }
        assert_eq!(Fields::parse("remark=a%0D%0Ab%09c").bounded(remark).unwrap().as_deref(), Some("a\r\nb\tc"));
        let Err(Error::Validation(errors)) = Fields::parse("remark=a%0Ab%1B%5B2J").bounded(remark) else { panic!() };
        assert_eq!(errors[0].1, "备注不能包含控制字符");
        assert_eq!(Fields::parse("contact=%E5%BC%A0%E4%B8%89").bounded(contact).unwrap().as_deref(), Some("张三"));
    }
}
