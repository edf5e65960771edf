//! The OpenAPI document's frame and what every operation shares: the error envelope, answered
//! for every refusal (4XX) and fault (5XX). Each operation's own 200 answer comes from its
//! handler's `#[utoipa::path]`.

use utoipa::OpenApi;
use utoipa::openapi::RefOr;
use utoipa::openapi::content::ContentBuilder;
use utoipa::openapi::response::ResponseBuilder;
use utoipa::openapi::schema::Ref;

use super::error::ErrorEnvelope;

/// The document's frame; the paths come from each handler's `#[utoipa::path]`.
#[derive(OpenApi)]
#[openapi(
    info(
        title = "医药批发商城 API",
        description = "The shop's origin API. POST bodies are application/x-www-form-urlencoded; every answer is the envelope { code, msg, data }: 10000 success, 10001 login required (HTTP 401), 422 validation (msg = the first message, data.errors = { field: [messages] }), 459 agreement required, other 4xx refusals with a Chinese msg, 5xx \"系统繁忙，请稍候再试\"."
    ),
    components(schemas(ErrorEnvelope))
)]
struct ApiDoc;

/// The document before the routes are merged into it.
pub fn frame() -> utoipa::openapi::OpenApi {
    ApiDoc::openapi()
}

/// The name of the shared error answer in `components.responses`.
const ERROR: &str = "Error";

/// Gives every operation the shared error answer for `4XX` and `5XX` (one component, referred
/// to from each), unless the operation describes its own.
pub fn document_errors(document: &mut utoipa::openapi::OpenApi) {
    let error = ResponseBuilder::new()
        .description(
            "拒绝或故障：信封 { code, msg, data }。10001/401 请先登录；422 字段错误（msg 为第一条，data.errors 为每个字段的消息）；\
             其他 4xx 为中文说明；500 系统繁忙，请稍候再试",
        )
        .content("application/json", ContentBuilder::new().schema(Some(Ref::from_schema_name("ErrorEnvelope"))).build())
        .build();
    document.components.get_or_insert_with(Default::default).responses.insert(ERROR.into(), RefOr::T(error));
    for item in document.paths.paths.values_mut() {
        let operations = [&mut item.get, &mut item.put, &mut item.post, &mut item.delete, &mut item.patch];
        for operation in operations.into_iter().flatten() {
            for range in ["4XX", "5XX"] {
                operation.responses.responses.entry(range.into()).or_insert_with(|| RefOr::Ref(Ref::from_response_name(ERROR)));
            }
        }
    }
}
