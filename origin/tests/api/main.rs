//! The origin's HTTP tests, one binary with a module per area: each test starts the real
//! application on a random port and talks HTTP to it, on a fresh SQLite file and then a fresh
//! PostgreSQL database (`common::on_both`).

mod common;

mod accounts;
mod after_sales;
mod articles;
mod backoffice;
mod cart;
mod compliance;
mod draw;
mod edge;
mod favorites;
mod goods;
mod invoices;
mod limits;
mod lots;
mod member;
mod openapi;
mod operations;
mod order_centre;
mod order_states;
mod orders;
mod payment;
mod promotions;
mod request_bodies;
mod requests;
mod returns;
mod scale;
mod search;
mod self_service;
mod session;
mod settlement;
mod shop;
mod texts;
mod uploads;
mod wechat;
mod zones;
