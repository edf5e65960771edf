//! What the edge and the origin must agree on about checkouts and orders (`docs/edge.md`):
//!
//! - [`form`]: how an order or checkout form is read — the chosen cart lines (`ids`) and the
//!   payable the buyer was shown (`expected_payable`);
//! - [`signature`]: the edge's signed word that it checked an order (`X-Edge-Check`);
//! - [`proof`]: the edge's proof on every request it forwards that it came through the edge
//!   (`X-Edge-Proof`), without which the origin believes nothing of a request's forwarding;
//! - [`limits`]: the largest body of each call, and which request ids are plain enough to log;
//! - [`paths`] and [`headers`]: the internal calls and the header names both sides use.
//!
//! Both the edge (compiled to WebAssembly) and the origin (native) depend on this crate; neither
//! depends on the other.

pub mod form;
pub mod limits;
pub mod proof;
pub mod signature;

/// The paths of the calls the edge makes to the origin, and the two it checks.
pub mod paths {
    /// `POST`: cart step 2's preview, checked by the edge.
    pub const CHECKOUT: &str = "/api/cart/checkout";
    /// `POST`: an order, checked and signed by the edge.
    pub const ORDER: &str = "/api/order";
    /// `GET`: the member's cart as the engine's input, which the edge checks against.
    pub const CART_INPUT: &str = "/api/cart/input";
    /// `POST`: the answer an order placed under an `Idempotency-Key` already has.
    pub const ORDER_ANSWER: &str = "/api/order/answer";
}

/// Header names, lower-case.
pub mod headers {
    /// The edge's signed check on an order ([`crate::signature`]); only the edge writes it.
    pub const EDGE_CHECK: &str = "x-edge-check";
    /// The edge's proof that a request came through it ([`crate::proof`]); only the edge writes it.
    pub const EDGE_PROOF: &str = "x-edge-proof";
    /// The edge's own quote summary on a checkout preview.
    pub const EDGE_QUOTE: &str = "x-edge-quote";
    /// The key that makes an order idempotent.
    pub const IDEMPOTENCY_KEY: &str = "idempotency-key";
}
