//! Business scope (经营范围, `docs/compliance.md`): the class every goods belongs to, whether it
//! is a prescription medicine, and the classes a member is approved to buy. A goods of a class
//! that needs a licence is sellable to a member only when that class is in the member's
//! approved scope; the cards say so (`out_of_scope`), the cart greys the line and the engine
//! sees it unsellable, adding refuses it, and the order's transaction checks it again.

use std::collections::BTreeSet;

use sqlx::AnyConnection;

use crate::domain::stored::stored_enum;

stored_enum! {
    /// A goods' class in the terms licences state their scope in (`goods.scope_class`,
    /// `member_scopes.class`).
    pub enum ScopeClass {
        Chemical = 1 => "化学药制剂",
        Antibiotic = 2 => "抗生素制剂",
        PatentChinese = 3 => "中成药",
        HerbalPieces = 4 => "中药饮片",
        Biochemical = 5 => "生化药品",
        Biological = 6 => "生物制品",
        DeviceI = 7 => "第一类医疗器械",
        DeviceII = 8 => "第二类医疗器械",
        DeviceIII = 9 => "第三类医疗器械",
        HealthFood = 10 => "保健食品",
        Food = 11 => "食品",
        Disinfectant = 12 => "消毒产品",
        Daily = 13 => "日用品",
    }
}

impl ScopeClass {
    /// A goods' dosage form (剂型) as the delivery note prints it, read from its name and
    /// specification: medicines by the word that names their form, herbs as 饮片; empty for
    /// goods that have none (devices, foods, daily goods) or a name that does not say.
    pub fn dosage_form(self, name: &str, ypgg: &str) -> &'static str {
        if self == ScopeClass::HerbalPieces {
            return "饮片";
        }
        if !matches!(
            self,
            ScopeClass::Chemical | ScopeClass::Antibiotic | ScopeClass::PatentChinese | ScopeClass::Biochemical | ScopeClass::Biological
        ) {
            return "";
        }
        const FORMS: &[(&str, &str)] = &[
            ("胶囊", "胶囊剂"),
            ("颗粒", "颗粒剂"),
            ("注射", "注射剂"),
            ("口服液", "合剂"),
            ("糖浆", "糖浆剂"),
            ("滴眼", "滴眼剂"),
            ("喷雾", "喷雾剂"),
            ("软膏", "软膏剂"),
            ("乳膏", "乳膏剂"),
            ("凝胶", "凝胶剂"),
            ("贴", "贴剂"),
            ("丸", "丸剂"),
            ("散", "散剂"),
            ("片", "片剂"),
            ("液", "溶液剂"),
        ];
        let text = format!("{name} {ypgg}");
        FORMS.iter().find(|(word, _)| text.contains(word)).map_or("", |(_, form)| form)
    }

    /// Whether buying it takes a licence that states the class: medicines, devices of class II
    /// and III, foods. Class I devices, disinfectants and daily goods need none, and every
    /// approved member may buy them.
    pub fn needs_licence(self) -> bool {
        !matches!(self, ScopeClass::DeviceI | ScopeClass::Disinfectant | ScopeClass::Daily)
    }
}

stored_enum! {
    /// How a goods may be dispensed (`goods.dispensing`): a prescription medicine, an
    /// over-the-counter one of list A or B, or not a medicine.
    pub enum Dispensing {
        None = 0 => "",
        Prescription = 1 => "处方药",
        OtcA = 2 => "甲类OTC",
        OtcB = 3 => "乙类OTC",
    }
}

/// What a goods outside the member's scope shows instead of its add button, and the refusal
/// of adding it or ordering it.
pub const OUT_OF_SCOPE: &str = "超出经营范围";

/// The classes a member is approved to buy.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Scope(BTreeSet<ScopeClass>);

impl Scope {
    /// Every class.
    pub fn all() -> Scope {
        Scope(ScopeClass::ALL.into_iter().collect())
    }

    /// The classes given.
    pub fn of(classes: impl IntoIterator<Item = ScopeClass>) -> Scope {
        Scope(classes.into_iter().collect())
    }

    /// The member's approved scope.
    pub async fn of_member(conn: &mut AnyConnection, member: i64) -> sqlx::Result<Scope> {
        let classes: Vec<ScopeClass> =
            sqlx::query_scalar("SELECT class FROM member_scopes WHERE member_id = $1").bind(member).fetch_all(&mut *conn).await?;
        Ok(Scope::of(classes))
    }

    /// Whether a goods of `class` may be sold to the member.
    pub fn allows(&self, class: ScopeClass) -> bool {
        !class.needs_licence() || self.0.contains(&class)
    }

    /// The classes, in code order.
    pub fn classes(&self) -> impl Iterator<Item = ScopeClass> + '_ {
        self.0.iter().copied()
    }

    /// Replaces the member's approved scope with this one, in the caller's transaction.
    pub async fn store(&self, conn: &mut AnyConnection, member: i64) -> sqlx::Result<()> {
        sqlx::query("DELETE FROM member_scopes WHERE member_id = $1").bind(member).execute(&mut *conn).await?;
        for class in self.classes() {
            sqlx::query("INSERT INTO member_scopes (member_id, class) VALUES ($1, $2)")
                .bind(member)
                .bind(class)
                .execute(&mut *conn)
                .await?;
        }
        Ok(())
    }
}

/// Reads a scope as the operator writes it: class names (or codes) separated by commas or
/// new lines; the first word that is no class is the error.
pub fn parse_scope(text: &str) -> Result<Scope, String> {
    let mut classes = BTreeSet::new();
    for item in text.split([',', '，', '、', '\n']).map(str::trim).filter(|item| !item.is_empty()) {
        classes.insert(ScopeClass::from_text(item).ok_or_else(|| format!("经营范围中没有“{item}”这一类"))?);
    }
    Ok(Scope(classes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scope_allows_its_classes_and_those_that_need_no_licence() {
        let scope = parse_scope("中成药，中药饮片").unwrap();
        assert!(scope.allows(ScopeClass::PatentChinese));
        assert!(scope.allows(ScopeClass::HerbalPieces));
        assert!(!scope.allows(ScopeClass::Antibiotic));
        assert!(!scope.allows(ScopeClass::Chemical));
        assert!(!scope.allows(ScopeClass::DeviceII));
        assert!(scope.allows(ScopeClass::DeviceI));
        assert!(scope.allows(ScopeClass::Daily));
        assert!(Scope::all().allows(ScopeClass::Biological));
    }

    #[test]
    fn a_scope_is_read_from_names_or_codes_and_refuses_a_word_that_is_no_class() {
        assert_eq!(parse_scope("3\n化学药制剂").unwrap(), Scope::of([ScopeClass::PatentChinese, ScopeClass::Chemical]));
        assert_eq!(parse_scope("中成药,西药").unwrap_err(), "经营范围中没有“西药”这一类");
        assert_eq!(parse_scope("").unwrap(), Scope::default());
    }
}
