// The home page's banners: the first shown, a clone at either end, the dots to pick one, and the
// next every autoplaySpeed + 50 ms (as react-slick's, which drew them before).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render } from '@testing-library/react';
import { BannerCarousel } from './banner-carousel';

function renderBanners() {
  return render(
    <BannerCarousel className="banners" autoplaySpeed={5000}>
      {['一', '二', '三'].map((name) => (
        <a key={name} href={`/${name}`} className="banner" style={{ background: 'red' }}>
          {name}
        </a>
      ))}
    </BannerCarousel>,
  );
}

/** Time passing a tenth of a second at a time, React rendering in between (as it does in a browser). */
function pass(ms: number) {
  for (let left = ms; left > 0; left -= 100) act(() => vi.advanceTimersByTime(Math.min(100, left)));
}

const activeSlide = (container: HTMLElement) => container.querySelector('.slick-slide.slick-active')?.textContent;
const activeDot = (container: HTMLElement) => container.querySelector('.slick-dots li.slick-active')?.textContent;

describe('the banner carousel', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("draws react-slick's markup: the slides between two clones, one dot a slide", () => {
    const { container } = renderBanners();
    expect(container.querySelector('.ant-carousel > .slick-slider.banners.slick-initialized > .slick-list > .slick-track')).toBeTruthy();
    const slides = [...container.querySelectorAll('.slick-slide')];
    expect(slides.map((slide) => slide.getAttribute('data-index'))).toEqual(['-1', '0', '1', '2', '3']);
    expect(slides.map((slide) => slide.classList.contains('slick-cloned'))).toEqual([true, false, false, false, true]);
    expect(activeSlide(container)).toBe('一');
    expect(container.querySelectorAll('.slick-dots.slick-dots-bottom li')).toHaveLength(3);
    const link = container.querySelector<HTMLAnchorElement>('.slick-active a.banner')!;
    expect(link.getAttribute('tabindex')).toBe('-1');
    expect(link.style.display).toBe('inline-block');
  });

  it('moves on every 5 s, from the last to the first, and held while the pointer is on it', () => {
    const { container } = renderBanners();
    pass(5050);
    expect(activeDot(container)).toBe('2');
    pass(600);
    expect(activeSlide(container)).toBe('二');
    pass(5050 * 2);
    expect(activeDot(container)).toBe('1');
    pass(600);
    expect(activeSlide(container)).toBe('一');
    fireEvent.mouseEnter(container.querySelector('.slick-list')!);
    pass(20_000);
    expect(activeSlide(container)).toBe('一');
  });

  it('shows the slide whose dot is clicked', () => {
    const { container } = renderBanners();
    fireEvent.click(container.querySelectorAll('.slick-dots button')[2]);
    pass(600);
    expect(activeSlide(container)).toBe('三');
    expect(activeDot(container)).toBe('3');
  });
});
