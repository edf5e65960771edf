// The home page's banners: one at a time, the next every few seconds (held while the pointer is
// on them), the dots under them to pick one. Drawn as Ant Design's Carousel draws them (its
// react-slick markup and classes, so that its stylesheet gives the same look: a track of slides
// moved by a transform, a clone at either end so that the last slides on to the first), without
// react-slick and the Carousel's code, which were the largest part of the home page's own
// JavaScript (12 KB gzipped).
import {
  Children,
  cloneElement,
  useCallback,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type ReactElement,
  type ReactNode,
} from 'react';
import useCarouselStyle from 'antd/es/carousel/style';

/** react-slick's defaults as Ant Design's Carousel uses them. */
const SPEED_MS = 500;
const EASE = 'ease';
/** react-slick swipes on a move of more than a fifth of the width (touchThreshold 5). */
const TOUCH_THRESHOLD = 5;

export function BannerCarousel({
  className,
  autoplaySpeed = 3000,
  children,
}: {
  className?: string;
  autoplaySpeed?: number;
  children: ReactNode;
}) {
  // Each banner as react-slick passes it on: out of the tab order, its width the slide's (its own
  // style replaced, as react-slick's is).
  const slides = (Children.toArray(children) as ReactElement<{ tabIndex?: number; style?: object }>[]).map((slide) =>
    cloneElement(slide, { tabIndex: -1, style: { width: '100%', display: 'inline-block' } }),
  );
  const count = slides.length;
  const looped = count > 1;
  const [hashId, cssVarCls] = useCarouselStyle('ant-carousel');
  const list = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState<number | null>(null);
  // The slide shown, as react-slick counts: -1 is the clone of the last before the first, `count`
  // the clone of the first after the last; `animating` while the track moves.
  const [current, setCurrent] = useState(0);
  const [animating, setAnimating] = useState(false);
  const [paused, setPaused] = useState(false);
  const touch = useRef<number | null>(null);
  const shown = useRef({ current, animating });
  useEffect(() => {
    shown.current = { current, animating };
  }, [current, animating]);

  useLayoutEffect(() => {
    const element = list.current;
    if (!element) return;
    const measure = () => setWidth(element.getBoundingClientRect().width);
    measure();
    if (typeof ResizeObserver === 'undefined') {
      window.addEventListener('resize', measure);
      return () => window.removeEventListener('resize', measure);
    }
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  const goTo = useCallback(
    (target: number) => {
      if (!looped || animating) return;
      setAnimating(true);
      setCurrent(target);
    },
    [looped, animating],
  );

  // Once the track has moved, a clone gives way to the slide it copies, without a transition.
  useEffect(() => {
    if (!animating) return;
    const timer = setTimeout(() => {
      setAnimating(false);
      setCurrent((at) => (at < 0 ? count - 1 : at >= count ? 0 : at));
    }, SPEED_MS);
    return () => clearTimeout(timer);
  }, [animating, current, count]);

  // Autoplay as react-slick's: the next slide every autoplaySpeed + 50 ms, none while the pointer
  // is on the slides.
  useEffect(() => {
    if (!looped || paused) return;
    const timer = setInterval(() => {
      if (shown.current.animating) return;
      setAnimating(true);
      setCurrent(shown.current.current + 1);
    }, autoplaySpeed + 50);
    return () => clearInterval(timer);
  }, [looped, paused, autoplaySpeed]);

  const active = ((current % count) + count) % count;
  const rendered = looped ? [slides[count - 1], ...slides, slides[0]] : slides;
  const offset = looped ? current + 1 : 0;
  const slideWidth = width === null ? `${100 / rendered.length}%` : `${width}px`;
  const trackStyle = {
    opacity: 1,
    width: width === null ? `${rendered.length * 100}%` : `${rendered.length * width}px`,
    transform:
      width === null ? `translate3d(${(-100 * offset) / rendered.length}%, 0px, 0px)` : `translate3d(${-offset * width}px, 0px, 0px)`,
    transition: animating ? `transform ${SPEED_MS}ms ${EASE}` : undefined,
  };

  return (
    <div className={['ant-carousel', hashId, cssVarCls].filter(Boolean).join(' ')}>
      <div className={['slick-slider', className, 'slick-initialized'].filter(Boolean).join(' ')} dir="ltr">
        <div
          className="slick-list"
          ref={list}
          onMouseEnter={() => setPaused(true)}
          onMouseLeave={() => setPaused(false)}
          onTouchStart={(event) => (touch.current = event.touches[0]?.clientX ?? null)}
          onTouchEnd={(event) => {
            const start = touch.current;
            touch.current = null;
            const end = event.changedTouches[0]?.clientX;
            if (start === null || end === undefined || !width) return;
            if (start - end > width / TOUCH_THRESHOLD) goTo(current + 1);
            else if (end - start > width / TOUCH_THRESHOLD) goTo(current - 1);
          }}
        >
          <div className="slick-track" style={trackStyle}>
            {rendered.map((slide, position) => {
              const index = looped ? position - 1 : position;
              const cloned = index < 0 || index >= count;
              const isActive = index === active && !cloned;
              return (
                <div
                  key={`${cloned ? 'clone' : 'slide'}-${index}`}
                  data-index={index}
                  tabIndex={-1}
                  className={['slick-slide', isActive ? 'slick-active slick-current' : '', cloned ? 'slick-cloned' : '']
                    .filter(Boolean)
                    .join(' ')}
                  aria-hidden={!isActive}
                  style={cloned ? { width: slideWidth } : { outline: 'none', width: slideWidth }}
                >
                  <div>{slide}</div>
                </div>
              );
            })}
          </div>
        </div>
        <ul style={{ display: 'block' }} className="slick-dots slick-dots-bottom">
          {slides.map((_, index) => (
            <li key={index} className={index === active ? 'slick-active' : ''}>
              <button onClick={() => index !== active && goTo(index)}>{index + 1}</button>
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
