//! The catalogue as the member sees it: the goods card every list, the cart and the favourites
//! show (`card`), who may buy controlled goods (`controlled`), the stock's lots and expiry (`lots`), business scope (`scope`), and
//! who is looking (`viewer`).

pub mod card;
pub mod controlled;
pub mod lots;
pub mod pictures;
pub mod scope;
pub mod viewer;
