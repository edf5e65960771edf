//! The catalogue as the member sees it: the goods card every list, the cart and the favourites
//! show (`card`), who may buy controlled goods (`controlled`), business scope (`scope`), and
//! who is looking (`viewer`).

pub mod card;
pub mod controlled;
pub mod scope;
pub mod viewer;
