// The red count on the cart buttons of the header and the rail, drawn as Ant Design's Badge draws
// one (a pill, white on the error red; smaller on the rail) from a plain element and the shop's
// CSS: the frame of every page has no need of the Badge's animated digits.

/** `count` as badge() of api/cart writes it ("0" shows nothing, "99+" past the cap). */
export function CountBadge({ count, small = false, className }: { count: string; small?: boolean; className?: string }) {
  return (
    <span className={['count-badge', className].filter(Boolean).join(' ')}>
      {count !== '0' && (
        <sup
          className={['count-badge-count', small ? 'small' : '', count.length > 1 ? 'wide' : ''].filter(Boolean).join(' ')}
          title={count}
        >
          {count}
        </sup>
      )}
    </span>
  );
}
