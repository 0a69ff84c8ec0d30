// Package clients0 holds AWS clients.
package clients0

import (
	"github.com/aws/aws-sdk-go-v2/aws"
	acm "github.com/aws/aws-sdk-go-v2/service/acm"
	autoscaling "github.com/aws/aws-sdk-go-v2/service/autoscaling"
	cloudwatch "github.com/aws/aws-sdk-go-v2/service/cloudwatch"
	dynamodb "github.com/aws/aws-sdk-go-v2/service/dynamodb"
	ecs "github.com/aws/aws-sdk-go-v2/service/ecs"
	eventbridge "github.com/aws/aws-sdk-go-v2/service/eventbridge"
	identitystore "github.com/aws/aws-sdk-go-v2/service/identitystore"
	lightsail "github.com/aws/aws-sdk-go-v2/service/lightsail"
	rds "github.com/aws/aws-sdk-go-v2/service/rds"
	sagemaker "github.com/aws/aws-sdk-go-v2/service/sagemaker"
	sesv2 "github.com/aws/aws-sdk-go-v2/service/sesv2"
)

// Clients are the service clients.
type Clients struct {
	Acm           *acm.Client
	Autoscaling   *autoscaling.Client
	Cloudwatch    *cloudwatch.Client
	Dynamodb      *dynamodb.Client
	Ecs           *ecs.Client
	Eventbridge   *eventbridge.Client
	Identitystore *identitystore.Client
	Lightsail     *lightsail.Client
	Rds           *rds.Client
	Sagemaker     *sagemaker.Client
	Sesv2         *sesv2.Client
}

// New makes every client.
func New(cfg aws.Config) *Clients {
	return &Clients{
		Acm:           acm.NewFromConfig(cfg),
		Autoscaling:   autoscaling.NewFromConfig(cfg),
		Cloudwatch:    cloudwatch.NewFromConfig(cfg),
		Dynamodb:      dynamodb.NewFromConfig(cfg),
		Ecs:           ecs.NewFromConfig(cfg),
		Eventbridge:   eventbridge.NewFromConfig(cfg),
		Identitystore: identitystore.NewFromConfig(cfg),
		Lightsail:     lightsail.NewFromConfig(cfg),
		Rds:           rds.NewFromConfig(cfg),
		Sagemaker:     sagemaker.NewFromConfig(cfg),
		Sesv2:         sesv2.NewFromConfig(cfg),
	}
}
