// A picture fetched when it comes near the window (200 px ahead), not with the page: the home
// page and the lists show many more goods and brands than the window does, and each picture is
// a request of its own. The browser's own `loading="lazy"` starts 1,250 px or more ahead, which
// on the home page is nearly every picture. Until then the image holds an empty picture (a
// data URL, no request) in the box the stylesheet gives it.
import type { ImgHTMLAttributes } from 'react';
import { useInView } from 'react-intersection-observer';

const EMPTY = 'data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7';

export function LazyImage({ src, alt, ...rest }: Omit<ImgHTMLAttributes<HTMLImageElement>, 'src' | 'alt'> & { src: string; alt: string }) {
  // Where IntersectionObserver is missing (jsdom), the picture is shown at once.
  const { ref, inView } = useInView({ triggerOnce: true, rootMargin: '200px', fallbackInView: true });
  return <img ref={ref} src={inView ? src : EMPTY} alt={alt} {...rest} />;
}
