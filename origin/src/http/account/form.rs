//! The forms of the account calls. What each call checks before it asks the database is read
//! here; a field the call judges only later (a code after the phone is known to be free, the
//! fields of the step asked for) is held as sent and checked where it always was.

use utoipa::ToSchema;

use super::{SCENES, phone};
use crate::http::error::{Error, Result};
use crate::http::extract::{Fields, FromFields};
use crate::security::text;

/// A code to send.
#[derive(ToSchema)]
pub struct CodeForm {
    /// 手机号码: a mobile number.
    pub phone: String,
    /// 验证码用途: `register` (absent), `forget`, `login` or `change_phone`.
    #[schema(value_type = Option<String>, example = "register")]
    pub scene: String,
}

impl FromFields for CodeForm {
    fn from_fields(form: &Fields) -> Result<CodeForm> {
        let phone = phone(form.text("phone"))?;
        let scene = form.text("scene").unwrap_or_else(|| "register".into());
        if !SCENES.contains(&scene.as_str()) {
            return Err(Error::field("scene", "验证码用途不正确"));
        }
        Ok(CodeForm { phone, scene })
    }
}

/// A step of registration: 1 `phone` and `code`; 2 the same with the account's fields (and
/// `dd=1`, `stores[]`, `company_code?` for the multi-store flow); 3 the qualification numbers.
#[derive(ToSchema)]
pub struct RegisterForm {
    /// 步骤: 1 (absent), 2 or 3.
    #[schema(value_type = Option<i64>, example = 1)]
    pub step: i64,
    /// 手机号码 (steps 1 and 2).
    pub phone: Option<String>,
    /// 验证码 of scene `register` (steps 1 and 2).
    pub code: Option<String>,
    /// 用户名 (step 2).
    pub username: Option<String>,
    /// 密码 (step 2): the engine's password rule.
    pub password: Option<String>,
    /// 确认密码 (step 2).
    pub password_confirmation: Option<String>,
    /// 企业名称 (step 2).
    pub company: Option<String>,
    /// 联系人 (step 2).
    pub name: Option<String>,
    /// 邮箱 (step 2, optional).
    pub email: Option<String>,
    /// 1 for the multi-store flow (step 2).
    #[schema(value_type = Option<i64>)]
    pub dd: Option<String>,
    /// 门店名称, one per store (`stores[]`; step 2 of the multi-store flow); none on the other
    /// steps.
    #[schema(required = false)]
    pub stores: Vec<String>,
    /// 企业编码 of the chain the account joins (step 2 of the multi-store flow).
    pub company_code: Option<String>,
    /// 企业类型 (step 2): 1 单体药店, 2 连锁药店, 3 诊所, 4 医院/卫生院, 5 批发企业; the
    /// multi-store flow is a 连锁药店 when absent. It decides which certificates the member must
    /// hold (`docs/compliance.md`).
    #[schema(value_type = Option<i64>, example = 1)]
    pub buyer_type: Option<String>,
    /// 医疗机构执业许可证登记号 (step 3, clinics and hospitals).
    pub practice: Option<String>,
    /// 药品经营许可证编号 (step 3).
    pub licence: Option<String>,
    /// 营业执照编号 (step 3).
    pub business: Option<String>,
    /// GSP证书编号 (step 3).
    pub gsp: Option<String>,
}

impl FromFields for RegisterForm {
    fn from_fields(form: &Fields) -> Result<RegisterForm> {
        Ok(RegisterForm {
            step: form.int_or("step", "步骤", 1)?,
            phone: form.text("phone"),
            code: form.text("code"),
            username: form.text("username"),
            password: form.text("password"),
            password_confirmation: form.text("password_confirmation"),
            company: form.text("company"),
            name: form.text("name"),
            email: form.text("email"),
            dd: form.text("dd"),
            stores: form.all("stores"),
            company_code: form.text("company_code"),
            buyer_type: form.text("buyer_type"),
            practice: form.text(text::PRACTICE.field),
            licence: form.text(text::LICENCE.field),
            business: form.text(text::BUSINESS.field),
            gsp: form.text(text::GSP.field),
        })
    }
}

/// A step of a forgotten password: 1 `phone` and `code`; 2 the same with the new password.
#[derive(ToSchema)]
pub struct ForgetForm {
    /// 步骤: 1 (absent) or 2.
    #[schema(value_type = Option<i64>, example = 1)]
    pub step: i64,
    /// 手机号码 of the account.
    pub phone: String,
    /// 验证码 of scene `forget`.
    #[schema(value_type = String)]
    pub code: Option<String>,
    /// 新密码 (step 2).
    pub password: Option<String>,
    /// 确认密码 (step 2).
    pub password_confirmation: Option<String>,
}

impl FromFields for ForgetForm {
    fn from_fields(form: &Fields) -> Result<ForgetForm> {
        let step = form.int_or("step", "步骤", 1)?;
        Ok(ForgetForm {
            step,
            phone: phone(form.text("phone"))?,
            code: form.text("code"),
            password: form.text("password"),
            password_confirmation: form.text("password_confirmation"),
        })
    }
}

/// The member's contact name and phone; moving to another phone also takes the current
/// password and a code of scene `change_phone` sent to the new one.
#[derive(ToSchema)]
pub struct UserInfoForm {
    /// 联系人.
    pub name: String,
    /// 手机号码.
    pub phone: String,
    /// 登录密码, the current one (when the phone changes).
    pub password: Option<String>,
    /// 验证码 sent to the new phone (when the phone changes).
    pub code: Option<String>,
}

impl FromFields for UserInfoForm {
    fn from_fields(form: &Fields) -> Result<UserInfoForm> {
        let name = form.required_bounded(text::NAME)?;
        let phone = phone(form.text("phone"))?;
        Ok(UserInfoForm { name, phone, password: form.text("password"), code: form.text("code") })
    }
}

/// A new password for the member, who knows the old one.
#[derive(ToSchema)]
pub struct PasswordForm {
    /// 原密码.
    pub old_password: String,
    /// 新密码: the engine's password rule.
    #[schema(value_type = String)]
    pub password: Option<String>,
    /// 确认密码: the same again.
    #[schema(value_type = String)]
    pub password_confirmation: Option<String>,
}

impl FromFields for PasswordForm {
    fn from_fields(form: &Fields) -> Result<PasswordForm> {
        let old_password = form.required_bounded(text::OLD_PASSWORD)?;
        Ok(PasswordForm { old_password, password: form.text("password"), password_confirmation: form.text("password_confirmation") })
    }
}
