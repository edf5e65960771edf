//! Roles and permissions. Every `/api/admin/*` call names the one permission it needs; a role
//! holds a fixed set. `super` holds every one; `readonly` every reading one; the others theirs
//! on top of the readings of the work they do.

use serde::Serialize;

/// An operator's role.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// 超级管理员: everything, operators and settings included; must use TOTP.
    Super,
    /// 运营: members, content, promotions.
    Operations,
    /// 仓库: shipping, returns received.
    Warehouse,
    /// 客服: after-sales, feedback, wanted varieties, messages.
    Service,
    /// 财务: invoices, refunds, balance grants.
    Finance,
    /// 只读: reads everything, changes nothing.
    Readonly,
}

impl Role {
    pub const ALL: [Role; 6] = [Role::Super, Role::Operations, Role::Warehouse, Role::Service, Role::Finance, Role::Readonly];

    pub fn key(self) -> &'static str {
        match self {
            Role::Super => "super",
            Role::Operations => "operations",
            Role::Warehouse => "warehouse",
            Role::Service => "service",
            Role::Finance => "finance",
            Role::Readonly => "readonly",
        }
    }

    /// The role's name in the console.
    pub fn title(self) -> &'static str {
        match self {
            Role::Super => "超级管理员",
            Role::Operations => "运营",
            Role::Warehouse => "仓库",
            Role::Service => "客服",
            Role::Finance => "财务",
            Role::Readonly => "只读",
        }
    }

    pub fn parse(key: &str) -> Option<Role> {
        Role::ALL.into_iter().find(|role| role.key() == key)
    }

    /// Whether this role must sign in with a TOTP code as well as the password.
    pub fn needs_totp(self) -> bool {
        self == Role::Super
    }

    pub fn allows(self, permission: Permission) -> bool {
        use Permission::*;
        match self {
            Role::Super => true,
            _ if permission.reads() => true,
            Role::Readonly => permission == ReadAudit,
            Role::Operations => matches!(permission, ReviewMembers | GrantBenefits | CancelOrders | Content | Promotions | Catalogue),
            Role::Warehouse => matches!(permission, Ship | ReceiveReturns | Stock),
            Role::Service => matches!(permission, AfterSales | ReviewReturns | Feedback | CancelOrders),
            Role::Finance => matches!(permission, Invoices | GrantBalance),
        }
    }

    /// Every permission the role holds, in the order of [`Permission::ALL`].
    pub fn permissions(self) -> Vec<Permission> {
        Permission::ALL.into_iter().filter(|permission| self.allows(*permission)).collect()
    }
}

/// What a call needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Permission {
    /// Reading the shop's work: the dashboard, members, orders, returns, invoices, content.
    Read,
    /// Reading the audit trail.
    ReadAudit,
    /// Certificates and controlled-sales approvals.
    ReviewMembers,
    /// Coupons, vouchers, red packets and points given to members.
    GrantBenefits,
    /// Balance given to members (an offline recharge).
    GrantBalance,
    /// Shipping orders and points orders, logistics events.
    Ship,
    /// Cancelling an unpaid order.
    CancelOrders,
    /// Approving and rejecting returns.
    ReviewReturns,
    /// Receiving returned goods (which refunds them).
    ReceiveReturns,
    /// Answering and closing after-sales cases.
    AfterSales,
    /// Issuing invoices.
    Invoices,
    /// Feedback and wanted varieties answered.
    Feedback,
    /// Articles, banners, ads, nav and hot words.
    Content,
    /// Operators and their roles.
    Operators,
    /// The shop's identity and who sees prices.
    Settings,
    /// Lots received into stock, and their inspection reports.
    Stock,
    /// Promotions: the store-wide discount, 满减, 秒杀, 组合购, 满额返现, 天天特价, 积分商品, 抽奖,
    /// 活动页, coupon and voucher templates.
    Promotions,
    /// The catalogue: goods added and changed, priced, put on sale and taken off.
    Catalogue,
}

impl Permission {
    pub const ALL: [Permission; 18] = [
        Permission::Read,
        Permission::ReadAudit,
        Permission::ReviewMembers,
        Permission::GrantBenefits,
        Permission::GrantBalance,
        Permission::Ship,
        Permission::CancelOrders,
        Permission::ReviewReturns,
        Permission::ReceiveReturns,
        Permission::AfterSales,
        Permission::Invoices,
        Permission::Feedback,
        Permission::Content,
        Permission::Operators,
        Permission::Settings,
        Permission::Stock,
        Permission::Promotions,
        Permission::Catalogue,
    ];

    /// Whether it only reads the shop's work (every role holds these but the audit trail,
    /// which is `super`'s and `readonly`'s).
    pub fn reads(self) -> bool {
        self == Permission::Read
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roles_hold_their_work_and_no_other() {
        assert!(Role::ALL.iter().all(|role| role.allows(Permission::Read)));
        assert_eq!(Role::Super.permissions(), Permission::ALL.to_vec());
        assert_eq!(Role::Readonly.permissions(), vec![Permission::Read, Permission::ReadAudit]);
        assert!(Role::Warehouse.allows(Permission::Ship) && !Role::Warehouse.allows(Permission::Invoices));
        assert!(Role::Warehouse.allows(Permission::Stock) && !Role::Operations.allows(Permission::Stock));
        assert!(Role::Operations.allows(Permission::Promotions) && !Role::Operations.allows(Permission::Settings));
        assert!(Role::Operations.allows(Permission::Catalogue) && !Role::Warehouse.allows(Permission::Catalogue));
        assert!(Role::Finance.allows(Permission::Invoices) && !Role::Finance.allows(Permission::Ship));
        assert!(!Role::Operations.allows(Permission::Operators) && !Role::Finance.allows(Permission::ReadAudit));
        assert!(Role::ALL.iter().all(|role| Role::parse(role.key()) == Some(*role)));
        assert_eq!(Role::parse("root"), None);
    }
}
