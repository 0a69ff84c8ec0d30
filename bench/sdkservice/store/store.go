// Package store keeps orders in DynamoDB and S3.
package store

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudwatch"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/iam"
	"github.com/aws/aws-sdk-go-v2/service/kinesis"
	"github.com/aws/aws-sdk-go-v2/service/lambda"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/secretsmanager"
	"github.com/aws/aws-sdk-go-v2/service/sns"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/aws/aws-sdk-go-v2/service/sts"
)

// Store saves orders.
type Store struct {
	DB      *dynamodb.Client
	S3      *s3.Client
	SQS     *sqs.Client
	SNS     *sns.Client
	Kinesis *kinesis.Client
	Lambda  *lambda.Client
	CW      *cloudwatch.Client
	IAM     *iam.Client
	Secrets *secretsmanager.Client
	STS     *sts.Client
	EC2     *ec2.Client
}

// Save writes one order.
func (s *Store) Save(ctx context.Context, id string, body []byte) error {
	_, err := s.DB.PutItem(ctx, &dynamodb.PutItemInput{
		TableName: aws.String("orders"),
		Item:      map[string]types.AttributeValue{"id": &types.AttributeValueMemberS{Value: id}},
	})
	if err != nil {
		return fmt.Errorf("save %s: %v", id, err)
	}
	return nil
}
