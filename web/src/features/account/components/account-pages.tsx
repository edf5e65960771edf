// The account centre's pages (账户中心, /zhzx/*) and the WeChat binding, loaded together.
export { BasicInfoPage } from './basic-info-page';
export { CertificatesPage } from './certificates-page';
export { StoresPage } from './stores-page';
export { AddressesPage } from './addresses-page';
export { MessagesPage } from './messages-page';
export { WechatPage } from './wechat-page';
export { AgreementPage } from './agreement-page';
