// The footer: the first 4 help groups, licence and company notices (the shop's identity from the
// common data, as the origin's settings hold it), two QR codes of fixed URLs (official account,
// mini-program: drawn ahead of time, footer-qr.ts), links.
import { Link } from 'react-router';
import { useCommonData, useHelpGroups, useLinks } from '@/api/common';
import { MINI_PROGRAM, OFFICIAL_ACCOUNT, type QrPicture } from './footer-qr';

/** A QR code, 88 px square, as qrcode.react's QRCodeSVG draws it. */
export function QrCode({ code }: { code: QrPicture }) {
  return (
    <svg height={88} width={88} viewBox={`0 0 ${code.modules} ${code.modules}`} role="img">
      <path fill="#FFFFFF" d={`M0,0 h${code.modules}v${code.modules}H0z`} shapeRendering="crispEdges" />
      <path fill="#000000" d={code.path} shapeRendering="crispEdges" />
    </svg>
  );
}

/** §9: the footer shows the first 4 help groups. */
export const HELP_GROUPS = 4;

export function Footer() {
  const help = useHelpGroups();
  const links = useLinks();
  const shop = useCommonData().data?.shop;
  return (
    <footer className="footer">
      <div className="container">
        <div className="footer-promises">
          <span>正品保障</span>
          <span>资质齐全</span>
          <span>极速配送</span>
          <span>专属客服</span>
        </div>
        <div className="footer-main">
          {(help.data ?? []).slice(0, HELP_GROUPS).map((group) => (
            <dl key={group.name}>
              <dt>{group.name}</dt>
              {group.list.map((article) => (
                <dd key={article.id}>
                  <Link to={`${article.path}?id=${article.id}`}>{article.title}</Link>
                </dd>
              ))}
            </dl>
          ))}
          <div className="footer-qr">
            <figure>
              <QrCode code={OFFICIAL_ACCOUNT} />
              <figcaption>关注公众号</figcaption>
            </figure>
            <figure>
              <QrCode code={MINI_PROGRAM} />
              <figcaption>微信小程序</figcaption>
            </figure>
          </div>
        </div>
        {links.data && links.data.length > 0 && (
          <div className="footer-links">
            友情链接：
            {links.data.map((link) => (
              <a key={link.url} href={link.url} target="_blank" rel="noreferrer">
                {link.name}
              </a>
            ))}
          </div>
        )}
        {shop && (
          <div className="footer-notice" data-testid="footer-notice">
            <p>
              药品经营许可证：{shop.drug_licence} | 互联网药品信息服务资格证书：{shop.internet_drug_licence}
              {shop.device_licence && ` | 医疗器械经营许可证：${shop.device_licence}`}
            </p>
            <p>本网站只面向具有合法资质的药品经营、医疗机构会员销售 | 客服及投诉电话：{shop.hot_line}</p>
            <p>
              {shop.company} | 统一社会信用代码：{shop.credit_code} | 地址：{shop.address}
            </p>
            <p>
              © 2026 {shop.name} {shop.company} 版权所有{shop.icp && ` | ${shop.icp}`}
            </p>
          </div>
        )}
      </div>
    </footer>
  );
}
