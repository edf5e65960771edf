// 商品图片 on a goods' page: the pictures uploaded for it in their order, the first its main
// picture (on cards, in lists and search, in the cart); more uploaded (JPG or PNG, decoded,
// scaled and encoded again by the origin), one made the main picture, moved or deleted. Each
// change answers the pictures as the origin keeps them, shown at once; a refusal shows in the
// origin's words, naming the file.
import { Alert, Button, Card, Empty, Image, Popconfirm, Space, Tag, Upload } from 'antd';
import { useChangePictures, useGoodsPictures } from './api';

const MAX_PICTURES = 10;

export function GoodsPictures({ goods, mayChange }: { goods: number; mayChange: boolean }) {
  const pictures = useGoodsPictures(goods);
  const change = useChangePictures(goods);
  const list = pictures.data ?? [];
  const move = (from: number, to: number) => {
    const order = list.map((picture) => picture.id);
    const [id] = order.splice(from, 1);
    order.splice(to, 0, id);
    change.mutate({ order });
  };
  return (
    <Card
      className="console-card"
      title="商品图片"
      extra={<span className="muted">第一张为主图，显示在商品列表、搜索结果和购物车中</span>}
      data-testid="goods-pictures-card"
    >
      {change.error && (
        <Alert type="error" showIcon message={change.error.message} data-testid="pictures-error" style={{ marginBottom: 12 }} />
      )}
      {pictures.isSuccess && list.length === 0 && <Empty description="还没有上传图片，商城显示系统绘制的商品图" />}
      {list.length > 0 && (
        <div className="console-pictures" data-testid="goods-pictures">
          {list.map((picture, at) => (
            <div key={picture.id} className="console-picture" data-testid="goods-picture" data-picture={picture.id}>
              <Image src={picture.thumb} preview={{ src: picture.large }} width={120} height={120} alt={picture.file_name} />
              <div className="console-picture-facts">
                {at === 0 && <Tag color="green">主图</Tag>}
                <span className="muted">
                  {picture.width}×{picture.height}
                </span>
              </div>
              {mayChange && (
                <Space size={0} wrap>
                  {at > 0 && (
                    <Button type="link" size="small" disabled={change.isPending} onClick={() => move(at, 0)}>
                      设为主图
                    </Button>
                  )}
                  {at > 0 && (
                    <Button type="link" size="small" disabled={change.isPending} onClick={() => move(at, at - 1)}>
                      左移
                    </Button>
                  )}
                  {at < list.length - 1 && (
                    <Button type="link" size="small" disabled={change.isPending} onClick={() => move(at, at + 1)}>
                      右移
                    </Button>
                  )}
                  <Popconfirm
                    title="删除这张图片？"
                    okText="删除"
                    cancelText="取消"
                    onConfirm={() => change.mutate({ remove: picture.id })}
                  >
                    <Button type="link" size="small" danger disabled={change.isPending}>
                      删除
                    </Button>
                  </Popconfirm>
                </Space>
              )}
            </div>
          ))}
        </div>
      )}
      {mayChange && (
        <Space style={{ marginTop: 12 }}>
          <Upload
            accept="image/jpeg,image/png"
            multiple
            showUploadList={false}
            disabled={change.isPending || list.length >= MAX_PICTURES}
            beforeUpload={(file, files) => {
              // Called once per file chosen: the last sends them all, in one request.
              if (file === files[files.length - 1]) change.mutate({ upload: files });
              return false;
            }}
          >
            <Button loading={change.isPending} disabled={list.length >= MAX_PICTURES}>
              上传图片
            </Button>
          </Upload>
          <span className="muted">
            JPG或PNG，每张不超过5MB，至少200×200像素；每个商品最多{MAX_PICTURES}张（已有{list.length}张）
          </span>
        </Space>
      )}
    </Card>
  );
}
